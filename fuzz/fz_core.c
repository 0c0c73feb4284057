/* fz_core.c - the harness's plumbing: how a broken invariant fails (and what FZ_TRACE prints), how
 * input bytes decode into numbers, vectors and slots, the small checks every operation uses (statuses,
 * unit normals, poisoned out-parameters, the size of a scene), and snapshots of everything observable
 * about a shape. */
#include "fz.h"

/* ---- failing ------------------------------------------------------------------------------- */

const char *fz_current_op = "?";
int fz_trace = -1;
c2d_shape *const *fz_trace_slots;

/* A chain's or concave polygon's parts, and its position and angle, for FZ_TRACE's dumps. */
static void fz_dump_parts(const c2d_shape *s)
{
    c2d_shape_type t = c2d_shape_get_type(s);
    int parts = 0;
    if ((t != C2D_SHAPE_CHAIN && t != C2D_SHAPE_CONCAVE) || c2d_shape_get_part_count(s, &parts) != C2D_OK)
        return;
    c2d_vec2 pos;
    double a;
    c2d_shape_get_position(s, &pos);
    c2d_shape_get_angle(s, &a);
    fprintf(stderr, "    position (%.17g, %.17g) angle %.17g, %d parts\n", pos.x, pos.y, a, parts);
    for (int k = 0; k < parts; k++) {
        c2d_vec2 v[64];
        int n = 0;
        if (c2d_shape_get_part_vertices(s, k, v, 64, &n) != C2D_OK)
            n = 0;
        fprintf(stderr, "    part %d:", k);
        for (int j = 0; j < n; j++)
            fprintf(stderr, " (%.17g, %.17g)", v[j].x, v[j].y);
        fprintf(stderr, "\n");
    }
}

void fz_dump_shape(const char *what, int i, const c2d_shape *s)
{
    c2d_vec2 v[64];
    int n = 0;
    double r = 0;
    c2d_shape_get_radius(s, &r);
    if (c2d_shape_get_vertices(s, v, 64, &n) != C2D_OK)
        n = 0;
    fprintf(stderr, "%s %d: kind %d radius %.17g vertices", what, i, (int)c2d_shape_get_type(s), r);
    for (int k = 0; k < n; k++)
        fprintf(stderr, " (%.17g, %.17g)", v[k].x, v[k].y);
    fprintf(stderr, "\n");
    fz_dump_parts(s);
}

const fz_state *fz_trace_state;

/* With FZ_TRACE, the live shapes (kind, radius, placed vertices) are printed before a failure, with
 * the shapes of the static set and of the world's entries. */
void fz_dump_slots(void)
{
    for (int i = 0; fz_trace_state && i < fz_trace_state->set_n; i++) {
        fprintf(stderr, "%s", fz_trace_state->set_on[i] ? "" : "(disabled) ");
        fz_dump_shape("set shape", i, fz_trace_state->set_shape[i]);
    }
    for (int i = 0; fz_trace_state && i < fz_trace_state->n_ent; i++)
        if (fz_trace_state->ent[i].live)
            fz_dump_shape("world entry", i, fz_trace_state->ent[i].shape);
    for (int i = 0; fz_trace_slots && i < FZ_SLOTS; i++) {
        const c2d_shape *s = fz_trace_slots[i];
        c2d_vec2 v[64];
        int n = 0;
        double r = 0;
        if (!s)
            continue;
        c2d_shape_get_radius(s, &r);
        if (c2d_shape_get_vertices(s, v, 64, &n) != C2D_OK)
            n = 0;
        c2d_vec2 pos = {0, 0};
        double angle = 0;
        c2d_shape_get_position(s, &pos);
        c2d_shape_get_angle(s, &angle);
        fprintf(stderr, "slot %d: kind %d radius %.17g at (%a, %a) angle %a, vertices", i, (int)c2d_shape_get_type(s), r,
                pos.x, pos.y, angle);
        for (int k = 0; k < n; k++)
            fprintf(stderr, " (%.17g, %.17g)", v[k].x, v[k].y);
        fprintf(stderr, "\n");
        fz_dump_parts(s);
    }
}
/* FZ_STRICT_COMPOUND_PAIRS (on unless =0): check pairs of two chains or concave polygons like every
 * other pair (the orders agreeing, the push separating); fixed, so on by default: see fz_check_pair. */
int fz_strict_pairs = -1;
/* FZ_STRICT_CHAIN_ONE_WAY=1: a direction given to a one-sided chain in a set with
 * c2d_static_set_set_one_way stays when the chain is re-placed, as every member's does; by default
 * the model follows the library, which gives each segment its own right-hand side again (known bug,
 * fuzz/known/, README): see fz_set_chain_faces. */
int fz_strict_chain = -1;
/* FZ_STRICT_COMPOUND_TOUCH=1: the checks a thin shape that only touches a concave polygon where several
 * of its parts meet (a hole's corner) breaks, by getting a contact depth (known bug, fuzz/known/, README):
 * a ray's stretch measured with c2d_distance against a compound, and a contact's push leaving the
 * shapes touching rather than apart. By default a compound's rays are judged by its rings instead
 * (fz_check_model_ray, independent of the library), and a push must only separate. */
int fz_strict_touch = -1;
/* FZ_STRICT_JOINTS=1: a concave member's joints are seams whatever the set (its joints "are always
 * seams"), also in a set whose explicit seam tolerance is as large as its parts' edges (a joint then
 * stops being one: a known bug, README); by default joints are checked on members whose shortest part
 * edge is 16 times the tolerance or more (the caller's, or the member's own automatic one). Disabled
 * members are checked too (fixed: disabling one part after the other recomputed the parts still
 * enabled without the first, and a disabled member keeps the flags it had). */
int fz_strict_joints = -1;
/* FZ_STRICT_MISC=1: three more known bugs, checked only then (fuzz/known/, README):
 *  - c2d_sweep gives C2D_ERR_RANGE for a chain or concave polygon whose displacement relative to the
 *    other shape (turned into its frame) reaches past C2D_MAX_COORDINATE, though both are valid;
 *  - c2d_static_set_new leaks when it refuses a seam tolerance and a chain or concave polygon is among
 *    the shapes (so by default the harness does not make that call);
 *  - a concave polygon whose rings come closer than the joint tolerance of its parts (1e-9 of its
 *    size; a hole or slit that narrow) takes those edges for joints: its nearest points and pushes
 *    ignore them. By default such a polygon's queries are not checked against its rings. */
int fz_strict_misc = -1;
/* FZ_STRICT_MOTION_PIVOT=1: c2d_static_set_get_motion gives the pivot c2d_static_set_set_motion was
 * given, always. The library keeps a member's pivot only once some member of the set turns, so a
 * motion without a turn (angular velocity 0) set before that reads back with pivot (0, 0), and after it
 * with its pivot (known bug, fuzz/known/set-get-motion-pivot-depends-on-other-members, README). By
 * default the model follows the library (ops_members.c, op_set_motion); a pivot without a turn moves
 * nothing, so no other check depends on it. */
int fz_strict_pivot = -1;
/* FZ_STRICT_CIRCLE_PIVOT=1: a circle's pivot turns with its angle like every shape's ("pivot is a point of
 * the shape, in its own frame ... turning with it"). The library places a turned circle's pivot at
 * position + pivot, as if its angle were 0 (a circle keeps the identity rotation in its placement, and
 * c2d_sweep_motion and the static set's turning members place the pivot with it), so it turns about
 * another point than the header's (known bug, fuzz/known/sweep-motion-turned-circle-pivot-not-turned,
 * README). By default the harness places a circle's pivot as the library does (fz_pivot_world). */
int fz_strict_circle_pivot = -1;
/* FZ_STRICT_CARRY=1: a mover that a turning member carries (after 8 contacts in a row with it, src/run.c)
 * is not carried through the set's other members. The library turns the mover's position with the
 * member's surface to the end of the call without sweeping that path against anything, so a ball on a
 * flipper's face goes through a post the flipper itself never reaches (known bug,
 * fuzz/known/set-ball-carried-by-a-flipper-through-a-post, README). By default the end check of a move
 * or ball step after such a ride looks at the carrier only (ops_moves.c, fz_end_responses). */
int fz_strict_carry = -1;
/* FZ_STRICT_BALLS_PUSH_OUT (on by default since the fix; =0 turns it off): balls of
 * c2d_static_set_step_balls that start clear of each other end clear of each other also when one
 * started inside a solid shape of the set. Each ball's level path begins with its push-out, which put
 * balls pushed out of a shape onto one place there overlapping, at rest, and no ball contact parted
 * them (fixed: the step pushes balls that start overlapping apart first,
 * fuzz/corpus/crash-balls-pushed-out-of-a-box-onto-each-other, README). Off, such pairs are left out
 * of the end check (ops_balls.c). */
int fz_strict_balls = -1;

/* The kinds of the pair being checked, for the failure message. */
int fz_kind_a, fz_kind_b;

void fz_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "\nfuzz_api: invariant broken in op %s [kinds %d, %d] (%s:%d): ", fz_current_op, fz_kind_a,
            fz_kind_b, file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    if (fz_trace > 0)
        fz_dump_slots();
    abort();
}

/* ---- decoding ------------------------------------------------------------------------------ */

uint8_t fz_byte(fz_state *st)
{
    if (st->n == 0)
        return 0;
    st->n--;
    return *st->p++;
}

static int16_t fz_i16(fz_state *st)
{
    uint16_t hi = fz_byte(st), lo = fz_byte(st);
    return (int16_t)(uint16_t)((hi << 8) | lo);
}

static double fz_raw_double(fz_state *st)
{
    uint8_t b[8];
    double d;
    for (int i = 0; i < 8; i++)
        b[i] = fz_byte(st);
    memcpy(&d, b, sizeof d);
    return d;
}

static const double fz_specials[] = {
    NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 4.9406564584124654e-324, -4.9406564584124654e-324,
    DBL_MIN, 1e-300, 1e300, -1e300, DBL_MAX, -DBL_MAX, C2D_MAX_COORDINATE, -C2D_MAX_COORDINATE,
    /* one ulp past the limit on each side, and one ulp inside */
    1.0000000000000002e15, -1.0000000000000002e15, 999999999999999.88, 5e14, -5e14,
    1.0, -1.0, 0.5, 2.0, 1e-9, 1e9, 3.14159265358979323846, 1.5707963267948966, -1.5707963267948966,
    6.283185307179586, 1e-16, 1.0000000000000002, 3.0, 10.0, 100.0, 1e-12, 1e12,
};
#define FZ_NSPECIALS ((int)(sizeof fz_specials / sizeof fz_specials[0]))

/* FZ_TRACE=1 prints each operation and the numbers it decoded, to turn a failing input into a repro. */

static double fz_number_raw(fz_state *st);

double fz_number(fz_state *st)
{
    double x = fz_number_raw(st);
    if (fz_trace)
        fprintf(stderr, " %.17g", x);
    return x;
}

/* Any double, weighted towards values that break geometry code. */
static double fz_number_raw(fz_state *st)
{
    uint8_t tag = fz_byte(st);
    if (tag < 0x40)
        return fz_specials[tag % FZ_NSPECIALS];
    if (tag < 0xB0)
        return fz_i16(st) / 64.0; /* exact, within +-512: touching and coincident cases */
    if (tag < 0xD8)
        return fz_raw_double(st);
    /* mantissa * 2^e over the whole range, from denormals to overflow */
    int16_t m = fz_i16(st);
    int e = (int8_t)fz_byte(st) * 8;
    return ldexp((double)m, e);
}

c2d_vec2 fz_vec(fz_state *st)
{
    c2d_vec2 v;
    v.x = fz_number(st);
    v.y = fz_number(st);
    return v;
}

c2d_vec2 fz_v(double x, double y)
{
    c2d_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

/* A slot index; the slot may be empty, and then the call gets NULL. */
int fz_slot(fz_state *st)
{
    int k = fz_byte(st) % FZ_SLOTS;
    if (fz_trace)
        fprintf(stderr, " [%d]", k);
    return k;
}

/* ---- small checks -------------------------------------------------------------------------- */

/* What the header promises to accept: finite and within C2D_MAX_COORDINATE. */
int fz_ok_number(double x)
{
    return isfinite(x) && fabs(x) <= C2D_MAX_COORDINATE;
}
int fz_ok_vec(c2d_vec2 v)
{
    return fz_ok_number(v.x) && fz_ok_number(v.y);
}

int fz_finite_vec(c2d_vec2 v)
{
    return isfinite(v.x) && isfinite(v.y);
}

/* The largest coordinate magnitude of a vector. */
double fz_vec_mag(c2d_vec2 v)
{
    return fmax(fabs(v.x), fabs(v.y));
}

double fz_len(c2d_vec2 v)
{
    return hypot(v.x, v.y);
}

c2d_vec2 fz_sub(c2d_vec2 a, c2d_vec2 b)
{
    return fz_v(a.x - b.x, a.y - b.y);
}

/* Every call but c2d_concave_new gives a status up to C2D_ERR_CAPACITY; C2D_ERR_NOT_SIMPLE (9) is
 * c2d_concave_new's alone (see fz_check_status_concave). */
void fz_check_status(c2d_status s)
{
    FZ_CHECK((int)s >= (int)C2D_OK && (int)s <= (int)C2D_ERR_CAPACITY, "status %d is not a c2d_status", (int)s);
    FZ_CHECK(c2d_status_string(s) != NULL, "no status string");
}

void fz_check_status_concave(c2d_status s)
{
    FZ_CHECK((int)s >= (int)C2D_OK && (int)s <= (int)C2D_ERR_NOT_SIMPLE, "status %d is not a c2d_status", (int)s);
    FZ_CHECK(c2d_status_string(s) != NULL && strcmp(c2d_status_string(s), "unknown status") != 0,
             "no status string for %d", (int)s);
}

void fz_check_unit(c2d_vec2 n, const char *what)
{
    FZ_CHECK(fz_finite_vec(n), "%s (%g, %g) not finite", what, n.x, n.y);
    FZ_CHECK(fabs(fz_len(n) - 1.0) <= 1e-9, "%s (%.17g, %.17g) not unit (length %.17g)", what, n.x, n.y,
             fz_len(n));
}

/* The size of a scene: the largest coordinate magnitude involved, at least 1. */
double fz_shape_scale(const c2d_shape *s)
{
    c2d_aabb b;
    if (!s || c2d_shape_get_aabb(s, &b) != C2D_OK)
        return 1.0;
    double m = fmax(fmax(fabs(b.min.x), fabs(b.min.y)), fmax(fabs(b.max.x), fabs(b.max.y)));
    return fmax(1.0, m);
}

int fz_is_poison(const void *p, size_t n)
{
    const unsigned char *c = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (c[i] != FZ_POISON)
            return 0;
    return 1;
}

int fz_is_compound(const c2d_shape *s)
{
    c2d_shape_type t = c2d_shape_get_type(s);
    return t == C2D_SHAPE_CHAIN || t == C2D_SHAPE_CONCAVE;
}

int fz_vec_eq(c2d_vec2 a, c2d_vec2 b)
{
    return a.x == b.x && a.y == b.y;
}

/* ---- snapshots: everything observable about a shape ----------------------------------------- */

void fz_snapshot_take(const c2d_shape *s, fz_snapshot *out)
{
    memset(out, 0, sizeof *out);
    out->type = c2d_shape_get_type(s);
    FZ_CHECK(c2d_shape_get_position(s, &out->pos) == C2D_OK, "get_position failed");
    FZ_CHECK(c2d_shape_get_angle(s, &out->angle) == C2D_OK, "get_angle failed");
    FZ_CHECK(c2d_shape_get_radius(s, &out->radius) == C2D_OK, "get_radius failed");
    FZ_CHECK(c2d_shape_get_aabb(s, &out->aabb) == C2D_OK, "get_aabb failed");
    FZ_CHECK(c2d_shape_get_vertices(s, NULL, 0, &out->count) == C2D_OK, "get_vertices (count) failed");
    FZ_CHECK(out->count >= 1 && out->count <= FZ_MAX_VERTS, "vertex count %d", out->count);
    int again = -1;
    FZ_CHECK(c2d_shape_get_vertices(s, out->v, FZ_MAX_VERTS, &again) == C2D_OK && again == out->count,
             "get_vertices failed");
    FZ_CHECK(c2d_shape_get_part_count(s, &out->parts) == C2D_OK && out->parts >= 1, "get_part_count failed");
    for (int k = 0; k < out->parts; k++) {
        int n = 0;
        FZ_CHECK(c2d_shape_get_part_vertices(s, k, NULL, 0, &n) == C2D_OK && n >= 1 &&
                     out->part_verts + n <= FZ_PART_VERTS,
                 "part %d: count failed or %d vertices", k, n);
        FZ_CHECK(c2d_shape_get_part_vertices(s, k, out->pv + out->part_verts, n, &again) == C2D_OK && again == n,
                 "part %d: vertices failed", k);
        out->part_verts += n;
    }
}

/* The parts of a shape: one for the convex kinds (its vertices), a chain's segments, a concave
 * polygon's convex parts (at least 3 vertices each), every part vertex in the shape's box (within the
 * rounding of placing each part on its own); part indices out of range and short capacities are
 * refused with nothing written. */
static void fz_check_parts(const c2d_shape *s, const fz_snapshot *sn)
{
    int compound = sn->type == C2D_SHAPE_CHAIN || sn->type == C2D_SHAPE_CONCAVE;
    FZ_CHECK(compound ? sn->parts >= 1 : sn->parts == 1, "type %d has %d parts", (int)sn->type, sn->parts);
    if (!compound)
        FZ_CHECK(sn->part_verts == sn->count && memcmp(sn->pv, sn->v, (size_t)sn->count * sizeof sn->v[0]) == 0,
                 "the one part of a convex shape is not its vertices");
    double tol = FZ_REL_TOL * fmax(1.0, fmax(fmax(fabs(sn->aabb.min.x), fabs(sn->aabb.min.y)),
                                             fmax(fabs(sn->aabb.max.x), fabs(sn->aabb.max.y))));
    for (int k = 0, at = 0; k < sn->parts; k++) {
        int n = 0;
        c2d_shape_get_part_vertices(s, k, NULL, 0, &n);
        if (sn->type == C2D_SHAPE_CHAIN)
            FZ_CHECK(n == 2, "chain part %d has %d vertices", k, n);
        if (sn->type == C2D_SHAPE_CONCAVE)
            FZ_CHECK(n >= 3, "concave part %d has %d vertices", k, n);
        for (int i = 0; i < n; i++) {
            c2d_vec2 v = sn->pv[at + i];
            FZ_CHECK(fz_finite_vec(v) && v.x >= sn->aabb.min.x - tol && v.x <= sn->aabb.max.x + tol &&
                         v.y >= sn->aabb.min.y - tol && v.y <= sn->aabb.max.y + tol,
                     "part %d vertex %d (%.17g, %.17g) outside the box", k, i, v.x, v.y);
        }
        if (n >= 2) {
            c2d_vec2 small[FZ_MAX_VERTS];
            int count = -7;
            memset(small, FZ_POISON, sizeof small);
            c2d_status r = c2d_shape_get_part_vertices(s, k, small, n - 1, &count);
            FZ_CHECK(r == C2D_ERR_CAPACITY && count == n && fz_is_poison(small, sizeof small),
                     "part %d with a short capacity gave %d, count %d, or wrote", k, (int)r, count);
        }
        at += n;
    }
    int bad[4] = {-1, sn->parts, INT_MIN, INT_MAX};
    for (int i = 0; i < 4; i++) {
        c2d_vec2 v[4];
        int count = -7;
        memset(v, FZ_POISON, sizeof v);
        c2d_status r = c2d_shape_get_part_vertices(s, bad[i], v, 4, &count);
        FZ_CHECK(r == C2D_ERR_RANGE && count == -7 && fz_is_poison(v, sizeof v), "part %d of %d gave %d or wrote",
                 bad[i], sn->parts, (int)r);
    }
    int count = -7;
    FZ_CHECK(c2d_shape_get_part_vertices(s, 0, NULL, 0, NULL) == C2D_ERR_NULL &&
                 c2d_shape_get_part_vertices(NULL, 0, NULL, 0, &count) == C2D_ERR_NULL && count == -7 &&
                 c2d_shape_get_part_count(s, NULL) == C2D_ERR_NULL && c2d_shape_get_part_count(NULL, &count) == C2D_ERR_NULL &&
                 count == -7,
             "a part call accepted NULL");
}

/* A shape is well formed: a kind, finite placement, a box holding every vertex. */
void fz_check_shape(const c2d_shape *s)
{
    fz_snapshot sn;
    fz_snapshot_take(s, &sn);
    FZ_CHECK(sn.type >= C2D_SHAPE_CIRCLE && sn.type <= C2D_SHAPE_CONCAVE, "type %d", (int)sn.type);
    int want = sn.type == C2D_SHAPE_CIRCLE                                   ? 1
               : sn.type == C2D_SHAPE_RECT                                   ? 4
               : sn.type == C2D_SHAPE_POLYGON || sn.type == C2D_SHAPE_CONCAVE ? -3
               : sn.type == C2D_SHAPE_CHAIN                                  ? -2
                                                                             : 2;
    FZ_CHECK(want < 0 ? sn.count >= -want : sn.count == want, "type %d has %d vertices", (int)sn.type, sn.count);
    FZ_CHECK(fz_finite_vec(sn.pos) && isfinite(sn.angle), "placement not finite");
    FZ_CHECK(isfinite(sn.radius) && sn.radius >= 0, "radius %g", sn.radius);
    FZ_CHECK((sn.radius > 0) == (sn.type == C2D_SHAPE_CIRCLE || sn.type == C2D_SHAPE_CAPSULE), "radius %g for type %d",
             sn.radius, (int)sn.type);
    FZ_CHECK(fz_finite_vec(sn.aabb.min) && fz_finite_vec(sn.aabb.max), "aabb not finite");
    FZ_CHECK(sn.aabb.min.x <= sn.aabb.max.x && sn.aabb.min.y <= sn.aabb.max.y, "aabb inverted");
    for (int i = 0; i < sn.count; i++) {
        c2d_vec2 v = sn.v[i];
        FZ_CHECK(fz_finite_vec(v), "vertex %d not finite", i);
        FZ_CHECK(v.x >= sn.aabb.min.x && v.x <= sn.aabb.max.x && v.y >= sn.aabb.min.y && v.y <= sn.aabb.max.y,
                 "vertex %d (%g, %g) outside the aabb", i, v.x, v.y);
    }
    /* Too small a capacity: C2D_ERR_CAPACITY, the count reported, nothing written. */
    c2d_vec2 small[FZ_MAX_VERTS];
    int count = -7;
    memset(small, FZ_POISON, sizeof small);
    c2d_status r = c2d_shape_get_vertices(s, small, sn.count - 1, &count);
    FZ_CHECK(r == C2D_ERR_CAPACITY && count == sn.count, "short capacity gave %d, count %d", (int)r, count);
    FZ_CHECK(fz_is_poison(small, sizeof small), "get_vertices wrote past a short capacity");
    fz_check_parts(s, &sn);
}

int fz_snapshot_equal(const fz_snapshot *a, const fz_snapshot *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}
