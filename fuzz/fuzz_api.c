/* fuzz_api.c - the libFuzzer harness for the public C API: it decodes the input bytes into a sequence
 * of API calls on a handful of shape slots and checks, after every call, the invariants the header
 * promises for every input it accepts. A broken invariant prints what broke and aborts, so libFuzzer
 * (and `make fuzz-regress`) records it like a crash.
 *
 * Input format: a stream of operations. Each operation is one byte; its low 6 bits index fz_ops[]
 * (slots past the end of the table are no-ops), and the operation then reads its own arguments. Numbers
 * come from fz_number(): special values (NaN, infinities, signed zeros, denormals, 1e300, values at and
 * just past C2D_MAX_COORDINATE), small fixed-point values (exactly representable, so shapes touch
 * exactly), raw doubles, and powers of two times a mantissa over the whole exponent range. Running out
 * of bytes reads zeros, so every input decodes to something.
 *
 * Extending: append new operations at the END of fz_ops[] and never reorder it, so the committed
 * corpus keeps meaning what it meant. Each op is one short function taking the state.
 *
 * Operations: shapes (0-19), c2d_sweep (20), static sets (21-27: new, enable, mark neighbours, sweep,
 * push-out, move, ball step; is_seam and the member getters are read after every set call), worlds
 * (28-37: new and margins, add, remove, update, bits/user/getters/pair filter, box/point/shape queries,
 * rays, pairs, optimize, moves and ball steps), feature rays (38), shared points (39), and the members
 * of a set that move and block from one side (40-43: re-place a member, its velocity, its one-way
 * direction, a world entry's one-way direction). Every set and world move and ball step is also run
 * in its _records form and compared. The harness keeps copies of the set's shapes (placed where the
 * set's members stand, with their velocities and one-way directions) and a model of the world, and
 * checks their results against brute force (c2d_sweep, c2d_distance, c2d_overlap, c2d_raycast over
 * the live entries); fuzz/README.md lists the invariants.
 *
 * Invariants checked (see fz_check_* below): every status is a c2d_status value; a call that should be
 * accepted (all numbers finite and in range, sizes positive, non-degenerate) returns C2D_OK and one that
 * should not is rejected; a rejected call writes no out-parameter and leaves the shape unchanged
 * (snapshot compare); accepted calls produce finite outputs, unit normals, depth >= 0; overlap, collide,
 * distance and point queries agree with each other and under argument swap, except within a tolerance
 * of touching relative to the size of the scene. */
#include "collide2d.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZ_SLOTS 6
#define FZ_MAX_POINTS 24
#define FZ_MAX_VERTS 64
#define FZ_OP_SLOTS 64
/* Relative tolerance for comparisons between different queries: rounding errors scale with the
 * coordinates involved, and these checks look for wrong answers, not for the last few ulps. */
#define FZ_REL_TOL 1e-9

/* Static sets hold up to this many shapes; worlds up to this many entries (live or removed). */
#define FZ_SET_MAX 16
#define FZ_MAX_ENTRIES 24
/* all_pairs is the most expensive op (21 pairs, each checked both ways): at most this many per input. */
#define FZ_ALL_PAIRS_MAX 3

#define FZ_RING_PTS 24 /* points of an outline or chain */
#define FZ_HOLES 3
#define FZ_HOLE_PTS 10
/* Vertices of all parts of a compound (the snapshot keeps them) and edges of one set member. */
#define FZ_PART_VERTS 512
#define FZ_SET_EDGES 256

static int fz_is_compound(const c2d_shape *s)
{
    c2d_shape_type t = c2d_shape_get_type(s);
    return t == C2D_SHAPE_CHAIN || t == C2D_SHAPE_CONCAVE;
}

/* The rings a compound was made from, in the world as it was made (its position then pos0, angle 0):
 * the outline and holes of a concave polygon, or a chain's points (open or closed). Queries are
 * checked against these rings placed where the shape stands now (see fz_model_place). */
typedef struct fz_model {
    int kind; /* 0 (none), C2D_SHAPE_CONCAVE or C2D_SHAPE_CHAIN */
    int closed, one_sided;
    int narrow; /* a concave polygon's rings come within its joint tolerance (see fz_rings_narrow) */
    int rings;
    int cnt[1 + FZ_HOLES];
    c2d_vec2 p[1 + FZ_HOLES][FZ_RING_PTS];
    c2d_vec2 pos0;
} fz_model;

/* An entry of the world as the harness added it; the harness owns its shape (a copy of a slot). */
typedef struct fz_entry {
    c2d_world_id id;
    c2d_shape *shape;
    uintptr_t user;
    unsigned cat, mask;
    int live;
    c2d_vec2 ow; /* its one-way direction as c2d_world_get_one_way reported it after the last change */
    int os;      /* its shape is a one-sided chain (each segment blocks from its right) */
} fz_entry;

typedef struct fz_state {
    const uint8_t *p;
    size_t n;
    c2d_shape *slot[FZ_SLOTS];
    fz_model model[FZ_SLOTS]; /* the rings a slot's chain or concave polygon was made from (kind 0: none) */
    int all_pairs_runs;
    /* The static set and copies of the shapes it was made from (its index i is set_shape[i]). */
    c2d_static_set *set;
    int set_n;
    c2d_shape *set_shape[FZ_SET_MAX];
    int set_on[FZ_SET_MAX];
    double set_seam_tol; /* the seam tolerance the set was made with (0: the default, 1e-9 of its size) */
    /* Members: set_shape[i] follows every accepted c2d_static_set_set_transform; the velocity as set
     * and the one-way direction as the library reported it after the last change (zero: none). */
    c2d_vec2 set_vel[FZ_SET_MAX], set_ow[FZ_SET_MAX];
    /* The largest coordinate magnitude of the members as the set was made (see fz_set_scale). */
    double set_mag;
    /* One-sided chains among the members (set_os), and whether each segment still blocks from its own
     * right (set_seg; set_ow is then part 0's direction, as c2d_static_set_get_one_way reports it),
     * or a direction set with c2d_static_set_set_one_way applies to every segment (set_seg 0). */
    int set_os[FZ_SET_MAX], set_seg[FZ_SET_MAX];
    /* The world, the harness's model of it, and shapes of removed entries awaiting the end of the
     * call that removed them (a callback may remove an entry the query still holds). */
    c2d_world *world;
    fz_entry ent[FZ_MAX_ENTRIES];
    int n_ent;
    c2d_shape *grave[FZ_MAX_ENTRIES];
    int n_grave;
    int pair_mod; /* the pair filter in use: 0 none, else see fz_pair_filter */
} fz_state;

/* Checks against the rings a chain or concave polygon was made from (see fz_model). */
static void fz_check_model_point(const fz_state *st, int k, c2d_vec2 p);
static void fz_check_model_ray(const fz_state *st, int k, c2d_vec2 o, c2d_vec2 d, double max_t, const c2d_ray_hit *h);
static void fz_check_slots(fz_state *st, int i, int j);
static void fz_check_one_way_dir(c2d_vec2 v, c2d_vec2 u, const char *what);
static c2d_shape *fz_moved(const c2d_shape *s, c2d_vec2 d, double k);
static int fz_rings_narrow(const c2d_vec2 *const *ring, const int *cnt, int rings, c2d_vec2 pos);

/* ---- failing ------------------------------------------------------------------------------- */

static const char *fz_current_op = "?";
static int fz_trace = -1;
static c2d_shape *const *fz_trace_slots;

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

static void fz_dump_shape(const char *what, int i, const c2d_shape *s)
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

static const fz_state *fz_trace_state;

/* With FZ_TRACE, the live shapes (kind, radius, placed vertices) are printed before a failure, with
 * the shapes of the static set and of the world's entries. */
static void fz_dump_slots(void)
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
static int fz_strict_pairs = -1;
/* FZ_STRICT_CHAIN_ONE_WAY=1: a direction given to a one-sided chain in a set with
 * c2d_static_set_set_one_way stays when the chain is re-placed, as every member's does; by default
 * the model follows the library, which gives each segment its own right-hand side again (known bug,
 * fuzz/known/, README): see fz_set_chain_faces. */
static int fz_strict_chain = -1;
/* FZ_STRICT_COMPOUND_TOUCH=1: the checks a thin shape that only touches a concave polygon where several
 * of its parts meet (a hole's corner) breaks, by getting a contact depth (known bug, fuzz/known/, README):
 * a ray's stretch measured with c2d_distance against a compound, and a contact's push leaving the
 * shapes touching rather than apart. By default a compound's rays are judged by its rings instead
 * (fz_check_model_ray, independent of the library), and a push must only separate. */
static int fz_strict_touch = -1;
/* FZ_STRICT_JOINTS=1: a concave member's joints are seams whatever the set (its joints "are always
 * seams"), also in a set whose explicit seam tolerance is as large as its parts' edges (a joint then
 * stops being one: a known bug, README); by default joints are checked on members whose shortest part
 * edge is 16 times the tolerance or more (the caller's, or the member's own automatic one). Disabled
 * members are checked too (fixed: disabling one part after the other recomputed the parts still
 * enabled without the first, and a disabled member keeps the flags it had). */
static int fz_strict_joints = -1;
/* FZ_STRICT_MISC=1: three more known bugs, checked only then (fuzz/known/, README):
 *  - c2d_sweep gives C2D_ERR_RANGE for a chain or concave polygon whose displacement relative to the
 *    other shape (turned into its frame) reaches past C2D_MAX_COORDINATE, though both are valid;
 *  - c2d_static_set_new leaks when it refuses a seam tolerance and a chain or concave polygon is among
 *    the shapes (so by default the harness does not make that call);
 *  - a concave polygon whose rings come closer than the joint tolerance of its parts (1e-9 of its
 *    size; a hole or slit that narrow) takes those edges for joints: its nearest points and pushes
 *    ignore them. By default such a polygon's queries are not checked against its rings. */
static int fz_strict_misc = -1;

/* The kinds of the pair being checked, for the failure message. */
static int fz_kind_a, fz_kind_b;

static void fz_fail(const char *file, int line, const char *fmt, ...)
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

#define FZ_CHECK(cond, ...)                                                         \
    do {                                                                            \
        if (!(cond))                                                                \
            fz_fail(__FILE__, __LINE__, __VA_ARGS__);                               \
    } while (0)

/* ---- decoding ------------------------------------------------------------------------------ */

static uint8_t fz_byte(fz_state *st)
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

static double fz_number(fz_state *st)
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

static c2d_vec2 fz_vec(fz_state *st)
{
    c2d_vec2 v;
    v.x = fz_number(st);
    v.y = fz_number(st);
    return v;
}

static c2d_vec2 fz_v(double x, double y)
{
    c2d_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

/* A slot index; the slot may be empty, and then the call gets NULL. */
static int fz_slot(fz_state *st)
{
    int k = fz_byte(st) % FZ_SLOTS;
    if (fz_trace)
        fprintf(stderr, " [%d]", k);
    return k;
}

/* ---- small checks -------------------------------------------------------------------------- */

/* What the header promises to accept: finite and within C2D_MAX_COORDINATE. */
static int fz_ok_number(double x)
{
    return isfinite(x) && fabs(x) <= C2D_MAX_COORDINATE;
}
static int fz_ok_vec(c2d_vec2 v)
{
    return fz_ok_number(v.x) && fz_ok_number(v.y);
}

static int fz_finite_vec(c2d_vec2 v)
{
    return isfinite(v.x) && isfinite(v.y);
}

/* The largest coordinate magnitude of a vector. */
static double fz_vec_mag(c2d_vec2 v)
{
    return fmax(fabs(v.x), fabs(v.y));
}

static double fz_len(c2d_vec2 v)
{
    return hypot(v.x, v.y);
}

static c2d_vec2 fz_sub(c2d_vec2 a, c2d_vec2 b)
{
    return fz_v(a.x - b.x, a.y - b.y);
}

/* Every call but c2d_concave_new gives a status up to C2D_ERR_CAPACITY; C2D_ERR_NOT_SIMPLE (9) is
 * c2d_concave_new's alone (see fz_check_status_concave). */
static void fz_check_status(c2d_status s)
{
    FZ_CHECK((int)s >= (int)C2D_OK && (int)s <= (int)C2D_ERR_CAPACITY, "status %d is not a c2d_status", (int)s);
    FZ_CHECK(c2d_status_string(s) != NULL, "no status string");
}

static void fz_check_status_concave(c2d_status s)
{
    FZ_CHECK((int)s >= (int)C2D_OK && (int)s <= (int)C2D_ERR_NOT_SIMPLE, "status %d is not a c2d_status", (int)s);
    FZ_CHECK(c2d_status_string(s) != NULL && strcmp(c2d_status_string(s), "unknown status") != 0,
             "no status string for %d", (int)s);
}

static void fz_check_unit(c2d_vec2 n, const char *what)
{
    FZ_CHECK(fz_finite_vec(n), "%s (%g, %g) not finite", what, n.x, n.y);
    FZ_CHECK(fabs(fz_len(n) - 1.0) <= 1e-9, "%s (%.17g, %.17g) not unit (length %.17g)", what, n.x, n.y,
             fz_len(n));
}

/* The size of a scene: the largest coordinate magnitude involved, at least 1. */
static double fz_shape_scale(const c2d_shape *s)
{
    c2d_aabb b;
    if (!s || c2d_shape_get_aabb(s, &b) != C2D_OK)
        return 1.0;
    double m = fmax(fmax(fabs(b.min.x), fabs(b.min.y)), fmax(fabs(b.max.x), fabs(b.max.y)));
    return fmax(1.0, m);
}

/* Bytes that no correct call writes: out-parameters are pre-filled with them to prove "not written". */
#define FZ_POISON 0xA5

static int fz_is_poison(const void *p, size_t n)
{
    const unsigned char *c = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (c[i] != FZ_POISON)
            return 0;
    return 1;
}

/* ---- exact orientation: the harness's own oracle (not src/predicates.c) ----------------------- */

/* Every double is an integer multiple of 2^-1074, so the orientation determinant of three points is
 * an integer once all six coordinates are scaled to a common power of two: computed here with plain
 * schoolbook big integers (sign and magnitude, 32-bit limbs). Products of two differences need at
 * most about 2 * (53 + 2098) bits, which FZ_BIG limbs hold. Only the rare cases a floating-point
 * filter cannot certify come here. */
#define FZ_BIG 140

typedef struct fz_big {
    uint32_t d[FZ_BIG];
    int n;   /* limbs in use (d[n - 1] != 0, or n == 0 for zero) */
    int neg; /* sign of a non-zero value */
} fz_big;

static void fz_big_norm(fz_big *b)
{
    while (b->n > 0 && b->d[b->n - 1] == 0)
        b->n--;
    if (b->n == 0)
        b->neg = 0;
}

/* x as the integer x * 2^-e0 (e0 at most the exponent of x's lowest bit). */
static void fz_big_set(fz_big *b, double x, int e0)
{
    memset(b, 0, sizeof *b);
    if (x == 0)
        return;
    int e;
    double f = frexp(fabs(x), &e);
    uint64_t m = (uint64_t)ldexp(f, 53); /* exact: x has at most 53 significant bits */
    int shift = e - 53 - e0, limb = shift / 32, bit = shift % 32;
    uint64_t lo = m << bit, hi = bit ? m >> (64 - bit) : 0;
    b->d[limb] = (uint32_t)lo;
    b->d[limb + 1] = (uint32_t)(lo >> 32);
    b->d[limb + 2] = (uint32_t)hi;
    b->n = limb + 3;
    b->neg = x < 0;
    fz_big_norm(b);
}

static int fz_mag_cmp(const fz_big *a, const fz_big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

/* r = a + b (signed); r may not alias a or b. */
static void fz_big_add(fz_big *r, const fz_big *a, const fz_big *b)
{
    memset(r, 0, sizeof *r);
    if (a->neg == b->neg) {
        uint64_t carry = 0;
        int n = a->n > b->n ? a->n : b->n;
        for (int i = 0; i < n; i++) {
            uint64_t s = carry + (i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0);
            r->d[i] = (uint32_t)s;
            carry = s >> 32;
        }
        r->d[n] = (uint32_t)carry;
        r->n = n + 1;
        r->neg = a->neg;
    } else {
        const fz_big *big = a, *small = b;
        if (fz_mag_cmp(a, b) < 0) {
            big = b;
            small = a;
        }
        int64_t borrow = 0;
        for (int i = 0; i < big->n; i++) {
            int64_t s = (int64_t)big->d[i] - (i < small->n ? small->d[i] : 0) - borrow;
            borrow = s < 0;
            r->d[i] = (uint32_t)(s + (borrow ? ((int64_t)1 << 32) : 0));
        }
        r->n = big->n;
        r->neg = big->neg;
    }
    fz_big_norm(r);
}

static void fz_big_mul(fz_big *r, const fz_big *a, const fz_big *b)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < a->n; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < b->n; j++) {
            uint64_t t = (uint64_t)a->d[i] * b->d[j] + r->d[i + j] + carry;
            r->d[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        r->d[i + b->n] = (uint32_t)carry;
    }
    r->n = a->n + b->n;
    r->neg = a->neg != b->neg;
    fz_big_norm(r);
}

static int fz_orient_exact(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    double v[6] = {a.x, a.y, b.x, b.y, c.x, c.y};
    int e0 = INT_MAX;
    for (int i = 0; i < 6; i++)
        if (v[i] != 0) {
            int e;
            frexp(v[i], &e);
            if (e - 53 < e0)
                e0 = e - 53;
        }
    if (e0 == INT_MAX)
        return 0;
    static fz_big x[6], dx1, dy1, dx2, dy2, p, q, r; /* large: kept off the stack */
    for (int i = 0; i < 6; i++)
        fz_big_set(&x[i], v[i], e0);
    x[0].neg = !x[0].neg && x[0].n; /* -a.x */
    x[1].neg = !x[1].neg && x[1].n; /* -a.y */
    fz_big_add(&dx1, &x[2], &x[0]);
    fz_big_add(&dy1, &x[3], &x[1]);
    fz_big_add(&dx2, &x[4], &x[0]);
    fz_big_add(&dy2, &x[5], &x[1]);
    fz_big_mul(&p, &dx1, &dy2);
    fz_big_mul(&q, &dy1, &dx2);
    q.neg = !q.neg && q.n;
    fz_big_add(&r, &p, &q);
    return r.n == 0 ? 0 : r.neg ? -1 : 1;
}

/* The sign of (b - a) x (c - a), exactly, for finite points: a floating-point filter (Shewchuk's
 * bound, valid while no product underflows, hence the guard), else the big integers. */
static int fz_orient(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    double l = (b.x - a.x) * (c.y - a.y), r = (b.y - a.y) * (c.x - a.x), det = l - r;
    double sum = fabs(l) + fabs(r);
    if (isfinite(sum) && sum > 1e-290 && fabs(det) > 3.3306690738754716e-16 * sum)
        return det > 0 ? 1 : -1;
    return fz_orient_exact(a, b, c);
}

static int fz_veq(c2d_vec2 a, c2d_vec2 b)
{
    return a.x == b.x && a.y == b.y;
}

/* Whether the closed segments a-b and c-d share a point (exact). */
static int fz_on_segment(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    return fmin(a.x, b.x) <= c.x && c.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= c.y && c.y <= fmax(a.y, b.y);
}

static int fz_segments_meet(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c, c2d_vec2 d)
{
    if (fmax(a.x, b.x) < fmin(c.x, d.x) || fmax(c.x, d.x) < fmin(a.x, b.x) || fmax(a.y, b.y) < fmin(c.y, d.y) ||
        fmax(c.y, d.y) < fmin(a.y, b.y))
        return 0;
    int o1 = fz_orient(a, b, c), o2 = fz_orient(a, b, d), o3 = fz_orient(c, d, a), o4 = fz_orient(c, d, b);
    if (o1 * o2 > 0 || o3 * o4 > 0)
        return 0;
    if (o1 || o2 || o3 || o4)
        return 1;
    return fz_on_segment(a, b, c) || fz_on_segment(a, b, d) || fz_on_segment(c, d, a) || fz_on_segment(c, d, b);
}

/* For c collinear with a and b (a != b): whether c lies strictly between them. */
static int fz_strictly_between(c2d_vec2 a, c2d_vec2 c, c2d_vec2 b)
{
    if (a.x != b.x)
        return (a.x < c.x && c.x < b.x) || (b.x < c.x && c.x < a.x);
    return (a.y < c.y && c.y < b.y) || (b.y < c.y && c.y < a.y);
}

/* Even-odd count of q against a closed ring (a horizontal ray to the right, half-open rule), exact
 * for a q that is not on the ring. */
static int fz_ring_parity(const c2d_vec2 *p, int n, c2d_vec2 q)
{
    int odd = 0;
    for (int i = 0; i < n; i++) {
        c2d_vec2 a = p[i], b = p[(i + 1) % n];
        if ((a.y > q.y) == (b.y > q.y))
            continue;
        if ((a.y < b.y ? fz_orient(a, b, q) : fz_orient(b, a, q)) > 0)
            odd ^= 1;
    }
    return odd;
}

/* A ring without consecutive repeats (the last point equal to the first dropped too): its count. */
static int fz_ring_dedupe(const c2d_vec2 *in, int n, c2d_vec2 *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || !fz_veq(in[i], out[k - 1]))
            out[k++] = in[i];
    while (k > 1 && fz_veq(out[k - 1], out[0]))
        k--;
    return k;
}

/* Whether a deduplicated ring is degenerate: fewer than 3 distinct points, or all on one line. */
static int fz_ring_degenerate(const c2d_vec2 *p, int k)
{
    if (k < 3)
        return 1;
    for (int i = 2; i < k; i++)
        if (fz_orient(p[0], p[1], p[i]) != 0)
            return 0;
    return 1;
}

/* Marks the middles of straight runs of a deduplicated, non-degenerate ring (mid[i] = 1), removing
 * them one at a time as the documentation describes; returns 0 when the ring doubles back along
 * itself (three consecutive points on a line, the middle one not between the others). */
static int fz_ring_middles(const c2d_vec2 *p, int k, unsigned char *mid)
{
    int idx[64], m = k;
    for (int i = 0; i < k; i++) {
        idx[i] = i;
        mid[i] = 0;
    }
    for (int changed = 1; changed && m >= 3;) {
        changed = 0;
        for (int i = 0; i < m && m >= 3; i++) {
            c2d_vec2 a = p[idx[(i + m - 1) % m]], c = p[idx[i]], b = p[idx[(i + 1) % m]];
            if (fz_orient(a, c, b) != 0)
                continue;
            if (!fz_strictly_between(a, c, b))
                return 0;
            mid[idx[i]] = 1;
            for (int j = i; j + 1 < m; j++)
                idx[j] = idx[j + 1];
            m--;
            changed = 1;
            i--;
        }
    }
    return 1;
}

/* Whether a deduplicated, non-degenerate ring is simple: no doubling back, and no two edges that are
 * not neighbours share a point (O(k^2), every test exact). */
static int fz_ring_simple(const c2d_vec2 *p, int k)
{
    unsigned char mid[64];
    if (!fz_ring_middles(p, k, mid))
        return 0;
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++) {
            int adjacent = j == i + 1 || (i == 0 && j == k - 1);
            if (adjacent)
                continue; /* neighbours share their point; overlaps were found above */
            if (fz_segments_meet(p[i], p[(i + 1) % k], p[j], p[(j + 1) % k]))
                return 0;
        }
    return 1;
}

/* Whether two rings share a point (every edge pair, exact). */
static int fz_rings_meet(const c2d_vec2 *p, int n, const c2d_vec2 *q, int m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (fz_segments_meet(p[i], p[(i + 1) % n], q[j], q[(j + 1) % m]))
                return 1;
    return 0;
}

/* The nearest point of segment a-b to q, robust to tiny and huge segments. */
static c2d_vec2 fz_seg_closest(c2d_vec2 a, c2d_vec2 b, c2d_vec2 q)
{
    c2d_vec2 e = fz_v(b.x - a.x, b.y - a.y);
    double s = fmax(fabs(e.x), fabs(e.y));
    if (!(s > 0))
        return a;
    c2d_vec2 u = fz_v(e.x / s, e.y / s), w = fz_v((q.x - a.x) / s, (q.y - a.y) / s);
    double t = (w.x * u.x + w.y * u.y) / (u.x * u.x + u.y * u.y);
    if (!isfinite(t))
        t = hypot(q.x - a.x, q.y - a.y) <= hypot(q.x - b.x, q.y - b.y) ? 0 : 1;
    if (t <= 0)
        return a;
    if (t >= 1)
        return b;
    return fz_v(a.x + t * e.x, a.y + t * e.y);
}

/* ---- compound shapes: what the harness knows of them -------------------------------------------- */

typedef c2d_vec2 fz_rings[1 + FZ_HOLES][FZ_RING_PTS];

/* The model's rings where the shape stands now: pos + R(angle) (p - pos0), with the C library's sine
 * and cosine (faithful, like the library's own: a rounding apart at most). */
static void fz_model_place(const fz_model *m, const c2d_shape *s, fz_rings w)
{
    c2d_vec2 pos;
    double a = 0;
    c2d_shape_get_position(s, &pos);
    c2d_shape_get_angle(s, &a);
    double c = a == 0 ? 1 : cos(a), sn = a == 0 ? 0 : sin(a);
    for (int r = 0; r < m->rings; r++)
        for (int i = 0; i < m->cnt[r]; i++) {
            c2d_vec2 d = fz_v(m->p[r][i].x - m->pos0.x, m->p[r][i].y - m->pos0.y);
            w[r][i] = fz_v(pos.x + (c * d.x - sn * d.y), pos.y + (sn * d.x + c * d.y));
        }
}

/* Whether edge i of ring r is an edge of the model (a chain that is open has no closing edge). */
static int fz_model_edges(const fz_model *m, int r)
{
    int k = m->cnt[r];
    return m->kind == C2D_SHAPE_CHAIN && !m->closed ? k - 1 : k;
}

/* Signed distance from q to the placed rings w: the distance to the nearest edge, negative inside the
 * region (even-odd against every ring) for a concave polygon; a chain has no inside. *near gets the
 * nearest point. */
static double fz_model_sd(const fz_model *m, fz_rings w, c2d_vec2 q, c2d_vec2 *near)
{
    double best = INFINITY;
    c2d_vec2 bq = q;
    int odd = 0;
    for (int r = 0; r < m->rings; r++) {
        int k = m->cnt[r];
        for (int i = 0; i < fz_model_edges(m, r); i++) {
            c2d_vec2 c = fz_seg_closest(w[r][i], w[r][(i + 1) % k], q);
            double d = hypot(q.x - c.x, q.y - c.y);
            if (d < best) {
                best = d;
                bq = c;
            }
        }
        if (m->kind == C2D_SHAPE_CONCAVE)
            odd ^= fz_ring_parity(w[r], k, q);
    }
    if (near)
        *near = bq;
    return odd ? -best : best;
}

/* The largest coordinate magnitude of the placed rings. */
static double fz_model_mag(const fz_model *m, fz_rings w)
{
    double s = 0;
    for (int r = 0; r < m->rings; r++)
        for (int i = 0; i < m->cnt[r]; i++)
            s = fmax(s, fmax(fabs(w[r][i].x), fabs(w[r][i].y)));
    return s;
}

/* The placed vertices of part k of s (count in *n, 0 on failure). */
static void fz_part(const c2d_shape *s, int k, c2d_vec2 *v, int cap, int *n)
{
    *n = 0;
    if (c2d_shape_get_part_vertices(s, k, v, cap, n) != C2D_OK)
        *n = 0;
}

static int fz_part_count(const c2d_shape *s)
{
    int n = 0;
    if (!s || c2d_shape_get_part_count(s, &n) != C2D_OK)
        return 0;
    return n;
}

/* The edges a static set counts for s: the vertex count of a convex kind with at least 2 (a circle has
 * none), and for a chain or concave polygon those of its parts, one part after the other. */
static int fz_edge_count(const c2d_shape *s)
{
    if (!fz_is_compound(s)) {
        int ne = 0;
        c2d_shape_get_vertices(s, NULL, 0, &ne);
        return ne < 2 ? 0 : ne;
    }
    int total = 0;
    for (int k = 0; k < fz_part_count(s); k++) {
        int n = 0;
        c2d_shape_get_part_vertices(s, k, NULL, 0, &n);
        total += n >= 2 ? n : 0;
    }
    return total;
}

/* The unit right-hand normal of a chain's part k (a segment a-b, right of b - a), scaled first so that
 * tiny and huge segments have one; zero when its ends coincide. */
static c2d_vec2 fz_chain_right(const c2d_shape *s, int k)
{
    c2d_vec2 v[2];
    int n = 0;
    fz_part(s, k, v, 2, &n);
    if (n != 2)
        return fz_v(0, 0);
    return fz_v(v[1].y - v[0].y, -(v[1].x - v[0].x));
}

/* The signed distance from s to the nearest part of a chain or concave polygon (each part a shape of
 * its own, shifted by `shift`): the one smallest in magnitude. A one-way compound's parts block one by
 * one, so a mover may touch one part while it overlaps another it passes through. NAN when no part can
 * be built. */
static double fz_part_distance(const c2d_shape *s, const c2d_shape *member, c2d_vec2 shift)
{
    double best = NAN;
    for (int k = 0; k < fz_part_count(member); k++) {
        c2d_vec2 v[FZ_MAX_VERTS];
        int n = 0;
        fz_part(member, k, v, FZ_MAX_VERTS, &n);
        for (int i = 0; i < n; i++)
            v[i] = fz_v(v[i].x + shift.x, v[i].y + shift.y);
        c2d_shape *part = NULL;
        c2d_distance_result r;
        if ((n == 2 ? c2d_segment_new(v[0], v[1], &part) : c2d_polygon_new(v, n, &part)) != C2D_OK)
            continue;
        if (c2d_distance(s, part, &r) == C2D_OK && (isnan(best) || fabs(r.distance) < fabs(best)))
            best = r.distance;
        c2d_shape_destroy(part);
    }
    return best;
}

/* The smallest width of n points taken in order as a convex outline: across each edge's direction,
 * the spread of the points (0 when no edge has a length). */
static double fz_points_width(const c2d_vec2 *v, int n)
{
    double w = INFINITY;
    for (int i = 0; i < n; i++) {
        c2d_vec2 e = fz_sub(v[(i + 1) % n], v[i]);
        double l = fz_len(e);
        if (!(l > 0) || !isfinite(l))
            continue;
        double lo = INFINITY, hi = -INFINITY;
        for (int j = 0; j < n; j++) {
            double t = (-(v[j].x - v[i].x) * e.y + (v[j].y - v[i].y) * e.x) / l;
            lo = fmin(lo, t);
            hi = fmax(hi, t);
        }
        w = fmin(w, hi - lo);
    }
    return isfinite(w) ? w : 0;
}

/* The smallest width of a shape: across each of its edges' directions, the spread of its vertices,
 * plus twice its radius (0 for a segment or chain, twice the radius for a circle). */
static double fz_min_width(const c2d_shape *s)
{
    c2d_vec2 v[FZ_MAX_VERTS];
    int n = 0;
    double r = 0;
    c2d_shape_get_radius(s, &r);
    if (fz_is_compound(s) && c2d_shape_get_type(s) == C2D_SHAPE_CHAIN)
        return 0;
    if (c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &n) != C2D_OK || n < 2)
        return 2 * r;
    return fz_points_width(v, n) + 2 * r;
}

/* Whether a contact with a one-sided chain (every segment blocking from its right) is met from a
 * side that blocks: of the chain's segments (shifted by `shift`, where a moving member stood then)
 * within tol of the contact point, one has the normal (towards the mover) on its right. When no
 * segment is that close (or only segments collapsed to a point) nothing is claimed. */
static int fz_chain_side_ok(const c2d_shape *s, c2d_vec2 shift, c2d_vec2 point, c2d_vec2 normal, double tol)
{
    int near = 0;
    for (int k = 0; k < fz_part_count(s); k++) {
        c2d_vec2 v[2];
        int n = 0;
        fz_part(s, k, v, 2, &n);
        if (n != 2)
            continue;
        c2d_vec2 a = fz_v(v[0].x + shift.x, v[0].y + shift.y), b = fz_v(v[1].x + shift.x, v[1].y + shift.y);
        c2d_vec2 c = fz_seg_closest(a, b, point), r = fz_chain_right(s, k);
        /* (A segment whose placed ends coincide has no side to judge.) */
        if (!(hypot(point.x - c.x, point.y - c.y) <= tol) || (r.x == 0 && r.y == 0))
            continue;
        near = 1;
        if (normal.x * r.x + normal.y * r.y > 0)
            return 1;
    }
    return !near;
}

/* ---- snapshots: everything observable about a shape ----------------------------------------- */


typedef struct fz_snapshot {
    c2d_shape_type type;
    int count;
    c2d_vec2 pos;
    double angle;
    double radius;
    c2d_aabb aabb;
    c2d_vec2 v[FZ_MAX_VERTS];
    /* The parts (one for the convex kinds) and all their vertices, one part after the other: a
     * compound whose outline stayed but whose parts moved has changed too. */
    int parts, part_verts;
    c2d_vec2 pv[FZ_PART_VERTS];
} fz_snapshot;

static void fz_snapshot_take(const c2d_shape *s, fz_snapshot *out)
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
static void fz_check_shape(const c2d_shape *s)
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

static int fz_snapshot_equal(const fz_snapshot *a, const fz_snapshot *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* ---- query checks -------------------------------------------------------------------------- */

/* Signed distance from p to a shape's boundary, through the library. Outputs (contact points, vertices)
 * may lie beyond C2D_MAX_COORDINATE, where the library rightly refuses points: those give 0, which
 * passes every check that uses it. */
static double fz_sd(const c2d_shape *s, c2d_vec2 p)
{
    double d = NAN;
    if (!fz_ok_vec(p))
        return 0.0;
    c2d_status r = c2d_closest_point(s, p, NULL, &d);
    FZ_CHECK(r == C2D_OK, "closest_point on an accepted point gave %d", (int)r);
    return d;
}

/* How far a polygon's edge lines may stand from where its exact points put them, across the polygon:
 * in a sliver far longer than its shortest edge L, rounding the vertices to the spacing at its size S
 * tilts the short edges, whose lines move by about 1e-16 S * S / L at its middle (as the header
 * says). 0 for other kinds. */
static double fz_sliver_slack_of(const c2d_vec2 *vs, int nv, double scale)
{
    double min_edge = INFINITY;
    for (int i = 0; i < nv; i++)
        min_edge = fmin(min_edge, fz_len(fz_v(vs[(i + 1) % nv].x - vs[i].x, vs[(i + 1) % nv].y - vs[i].y)));
    return min_edge > 0 ? 1e-15 * scale * (scale / min_edge) : INFINITY;
}

/* A concave polygon's parts are polygons built the same way (c2d_polygon_new on each part): its slack
 * is its slackest part's, measured at the whole shape's scale (the parts are placed with it). A
 * chain's parts are segments: none. */
static double fz_sliver_slack(const c2d_shape *s)
{
    c2d_vec2 vs[64]; /* the harness builds polygons of fewer points */
    int nv = 0;
    if (c2d_shape_get_type(s) == C2D_SHAPE_CONCAVE) {
        double slack = 0, scale = fz_shape_scale(s);
        for (int k = 0; k < fz_part_count(s); k++) {
            fz_part(s, k, vs, 64, &nv);
            if (nv >= 3)
                slack = fmax(slack, fz_sliver_slack_of(vs, nv, scale));
        }
        return slack;
    }
    if (c2d_shape_get_type(s) != C2D_SHAPE_POLYGON || c2d_shape_get_vertices(s, vs, 64, &nv) || nv > 64)
        return 0;
    return fz_sliver_slack_of(vs, nv, fz_shape_scale(s));
}

static void fz_check_contact(const c2d_contact *c, const c2d_shape *a, const c2d_shape *b, double tol)
{
    FZ_CHECK(c->count >= 0 && c->count <= 2, "contact count %d", c->count);
    if (c->count == 0) {
        FZ_CHECK(c->depth == 0 && c->normal.x == 0 && c->normal.y == 0, "no contact but depth %g normal (%g, %g)",
                 c->depth, c->normal.x, c->normal.y);
        return;
    }
    fz_check_unit(c->normal, "contact normal");
    FZ_CHECK(isfinite(c->depth) && c->depth >= 0, "contact depth %g", c->depth);
    for (int i = 0; i < c->count; i++) {
        FZ_CHECK(fz_finite_vec(c->points[i]), "contact point %d not finite", i);
        FZ_CHECK(isfinite(c->point_depths[i]) && c->point_depths[i] >= 0 && c->point_depths[i] <= c->depth + tol,
                 "point depth %d = %g with depth %g", i, c->point_depths[i], c->depth);
        /* Midway between the surfaces: within half the point's depth of each (inside both when
         * both have area; a segment has none, so there the point is half the depth off it). */
        double sa = fz_sd(a, c->points[i]), sb = fz_sd(b, c->points[i]), half = 0.5 * c->point_depths[i];
        /* A sliver's edge lines stand up to its slack from where its exact points put them (see
         * fz_sliver_slack), and the point is measured from both shapes' lines. */
        double ptol = tol + fz_sliver_slack(a) + fz_sliver_slack(b);
        FZ_CHECK(sa <= half + ptol && sb <= half + ptol,
                 "contact point %d (%.17g, %.17g) outside: sd A %g, sd B %g, half the depth %g (tol %g)", i,
                 c->points[i].x, c->points[i].y, sa, sb, half, ptol);
    }
}

static void fz_check_distance(const c2d_distance_result *d, double tol)
{
    FZ_CHECK(isfinite(d->distance), "distance %g", d->distance);
    FZ_CHECK(fz_finite_vec(d->point_a) && fz_finite_vec(d->point_b), "distance points not finite");
    fz_check_unit(d->normal, "distance normal");
    double gap = fz_len(fz_sub(d->point_b, d->point_a));
    FZ_CHECK(fabs(gap - fabs(d->distance)) <= tol, "closest points %.17g apart but distance %.17g", gap, d->distance);
}

/* Independent witnesses of overlap, from the point queries only (query.c, not the SAT): a core vertex
 * or the position of one shape (both belong to it) strictly inside the other, by more than tol.
 * Returns the witness point's index + 1, or 0. */
static int fz_overlap_witness(const c2d_shape *a, const c2d_shape *b, double tol)
{
    c2d_vec2 v[FZ_MAX_VERTS + 1];
    int n = 0;
    if (c2d_shape_get_vertices(b, v, FZ_MAX_VERTS, &n) != C2D_OK)
        return 0;
    /* A chain's or concave polygon's position (the centre of its points' box, the centroid of its
     * area) need not belong to it: only its points are witnesses. */
    if (!fz_is_compound(b))
        c2d_shape_get_position(b, &v[n++]);
    for (int i = 0; i < n; i++)
        if (fz_ok_vec(v[i]) && fz_sd(a, v[i]) < -tol)
            return i + 1;
    return 0;
}

/* Whether two shapes are one and the same geometry (kind, placed vertices, radius): only such a pair
 * has no order of its own, and may give the same normal both ways round. */
static int fz_same_geometry(const c2d_shape *a, const c2d_shape *b)
{
    c2d_vec2 va[FZ_MAX_VERTS], vb[FZ_MAX_VERTS];
    int na = 0, nb = 0;
    double ra = 0, rb = 0;
    if (c2d_shape_get_type(a) != c2d_shape_get_type(b) || c2d_shape_get_vertices(a, va, FZ_MAX_VERTS, &na) != C2D_OK ||
        c2d_shape_get_vertices(b, vb, FZ_MAX_VERTS, &nb) != C2D_OK)
        return 1; /* too many vertices to compare here: counted as the same, so not checked */
    c2d_shape_get_radius(a, &ra);
    c2d_shape_get_radius(b, &rb);
    if (!(na == nb && ra == rb && memcmp(va, vb, (size_t)na * sizeof va[0]) == 0))
        return 0;
    /* Compounds with one outline may differ in their holes: their parts say. */
    if (fz_part_count(a) != fz_part_count(b))
        return 0;
    for (int k = 0; k < fz_part_count(a) && fz_is_compound(a); k++) {
        fz_part(a, k, va, FZ_MAX_VERTS, &na);
        fz_part(b, k, vb, FZ_MAX_VERTS, &nb);
        if (na != nb || memcmp(va, vb, (size_t)na * sizeof va[0]) != 0)
            return 0;
    }
    return 1;
}

static int fz_same_bits(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0;
}

/* (b, a) is (a, b) turned round, to the bit: the same count, depth and points with the normal negated;
 * the same distance with the points exchanged. A miss is all zero bytes. */
static void fz_check_orders(const c2d_shape *a, const c2d_shape *b, const c2d_contact *c1, const c2d_contact *c2,
                            const c2d_distance_result *d1, const c2d_distance_result *d2, int lax)
{
    c2d_contact zero;
    memset(&zero, 0, sizeof zero);
    FZ_CHECK(c1->count > 0 || memcmp(c1, &zero, sizeof zero) == 0, "a miss is not all zero bytes");
    FZ_CHECK(c2->count > 0 || memcmp(c2, &zero, sizeof zero) == 0, "a swapped miss is not all zero bytes");
    if (fz_same_geometry(a, b) || lax)
        return;
    FZ_CHECK(c1->count == c2->count, "contact count %d but %d with the arguments swapped", c1->count, c2->count);
    if (c1->count > 0) {
        int same = fz_same_bits(c1->depth, c2->depth) && c1->normal.x == -c2->normal.x &&
                   c1->normal.y == -c2->normal.y;
        for (int i = 0; i < c1->count; i++)
            same = same && fz_same_bits(c1->points[i].x, c2->points[i].x) &&
                   fz_same_bits(c1->points[i].y, c2->points[i].y) &&
                   fz_same_bits(c1->point_depths[i], c2->point_depths[i]);
        FZ_CHECK(same, "contact not the same turned round: depth %.17g / %.17g, normal (%.17g, %.17g) / (%.17g, %.17g)",
                 c1->depth, c2->depth, c1->normal.x, c1->normal.y, c2->normal.x, c2->normal.y);
    }
    FZ_CHECK(fz_same_bits(d1->distance, d2->distance) && d1->normal.x == -d2->normal.x &&
                 d1->normal.y == -d2->normal.y && fz_same_bits(d1->point_a.x, d2->point_b.x) &&
                 fz_same_bits(d1->point_a.y, d2->point_b.y) && fz_same_bits(d1->point_b.x, d2->point_a.x) &&
                 fz_same_bits(d1->point_b.y, d2->point_a.y),
             "distance not the same turned round: %.17g / %.17g, normal (%.17g, %.17g) / (%.17g, %.17g)", d1->distance,
             d2->distance, d1->normal.x, d1->normal.y, d2->normal.x, d2->normal.y);
}

/* The contact's promise, checked where a chain or concave polygon is involved (whose contact is the
 * push-out of the whole shape, not of one part): moving B by depth * normal separates the two to
 * touching, neither overlapping nor apart by more than the tolerance of the scene (the moved copy
 * included). */
static void fz_check_push(const c2d_shape *a, const c2d_shape *b, const c2d_contact *c)
{
    if (c->count == 0 || !(c->depth > 0))
        return;
    c2d_shape *moved = fz_moved(b, c->normal, c->depth);
    if (!moved)
        return; /* the pushed copy would leave the coordinate range */
    c2d_distance_result r;
    double tol = FZ_REL_TOL * 4 * (1 + fmax(fmax(fz_shape_scale(a), fz_shape_scale(b)), c->depth));
    FZ_CHECK(c2d_distance(a, moved, &r) == C2D_OK, "distance after the push failed");
    c2d_shape_destroy(moved);
    FZ_CHECK(r.distance >= -tol && (r.distance <= tol || !fz_strict_touch),
             "moved by depth %.17g along (%.17g, %.17g), B is %.17g from A, not touching (tol %g)", c->depth,
             c->normal.x, c->normal.y, r.distance, tol);
}

/* Every pair query on (a, b) and (b, a), and how they agree. NULL shapes must give C2D_ERR_NULL and
 * leave the outputs alone. */
static void fz_check_pair(const c2d_shape *a, const c2d_shape *b)
{
    int o1, o2;
    c2d_contact c1, c2;
    c2d_distance_result d1, d2;
    memset(&o1, FZ_POISON, sizeof o1);
    memset(&c1, FZ_POISON, sizeof c1);
    memset(&d1, FZ_POISON, sizeof d1);
    fz_kind_a = (int)c2d_shape_get_type(a);
    fz_kind_b = (int)c2d_shape_get_type(b);
    c2d_status r1 = c2d_overlap(a, b, &o1), r2 = c2d_collide(a, b, &c1), r3 = c2d_distance(a, b, &d1);
    fz_check_status(r1);
    fz_check_status(r2);
    fz_check_status(r3);
    if (!a || !b) {
        FZ_CHECK(r1 == C2D_ERR_NULL && r2 == C2D_ERR_NULL && r3 == C2D_ERR_NULL, "NULL shape accepted");
        FZ_CHECK(fz_is_poison(&o1, sizeof o1) && fz_is_poison(&c1, sizeof c1) && fz_is_poison(&d1, sizeof d1),
                 "output written on error");
        return;
    }
    FZ_CHECK(r1 == C2D_OK && r2 == C2D_OK && r3 == C2D_OK, "pair query failed: %d %d %d", (int)r1, (int)r2, (int)r3);
    FZ_CHECK(c2d_overlap(a, b, NULL) == C2D_ERR_NULL && c2d_collide(a, b, NULL) == C2D_ERR_NULL &&
                 c2d_distance(a, b, NULL) == C2D_ERR_NULL,
             "NULL out accepted");
    FZ_CHECK(c2d_overlap(b, a, &o2) == C2D_OK && c2d_collide(b, a, &c2) == C2D_OK && c2d_distance(b, a, &d2) == C2D_OK,
             "swapped pair query failed");
    double tol = FZ_REL_TOL * fmax(fz_shape_scale(a), fz_shape_scale(b));
    FZ_CHECK(o1 == 0 || o1 == 1, "overlap wrote %d", o1);
    fz_check_contact(&c1, a, b, tol);
    fz_check_contact(&c2, b, a, tol);
    fz_check_distance(&d1, tol);
    fz_check_distance(&d2, tol);
    /* Two compounds: the contact is "the deepest of one shape against each part of the other", which
     * depends on which is which and need not separate them (fuzz/known/compound-pair-*): the checks
     * that contradicts are made only with FZ_STRICT_COMPOUND_PAIRS=1. */
    int lax = fz_is_compound(a) && fz_is_compound(b) && !fz_strict_pairs;
    FZ_CHECK(lax || fabs(d1.distance - d2.distance) <= tol, "distance not symmetric: %.17g vs %.17g", d1.distance,
             d2.distance);
    if (fabs(d1.distance) > tol) {
        /* Clear of touching: all three queries must give the same answer, both ways round. */
        int touching = d1.distance < 0;
        int agree = o1 == touching && o2 == touching && (c1.count > 0) == touching && (c2.count > 0) == touching;
        FZ_CHECK(agree, "overlap %d/%d, contacts %d/%d, but distance %.17g (tol %g)", o1, o2, c1.count, c2.count,
                 d1.distance, tol);
    }
    int w = fz_overlap_witness(a, b, tol), w2 = fz_overlap_witness(b, a, tol);
    FZ_CHECK(!(w || w2) || (o1 && o2 && c1.count > 0 && c2.count > 0 && d1.distance < tol),
             "a point of one shape is inside the other (witness %d/%d) but overlap %d/%d, contacts %d/%d, distance %.17g",
             w, w2, o1, o2, c1.count, c2.count, d1.distance);
    /* And of separation: bounding boxes apart. */
    c2d_aabb ba, bb;
    c2d_shape_get_aabb(a, &ba);
    c2d_shape_get_aabb(b, &bb);
    if (ba.min.x > bb.max.x + tol || bb.min.x > ba.max.x + tol || ba.min.y > bb.max.y + tol || bb.min.y > ba.max.y + tol)
        FZ_CHECK(!o1 && !o2 && !c1.count && !c2.count && d1.distance > 0, "boxes apart but overlap %d/%d, contacts %d/%d, distance %.17g",
                 o1, o2, c1.count, c2.count, d1.distance);
    if (c1.count > 0 && c2.count > 0 && !lax)
        FZ_CHECK(fabs(c1.depth - c2.depth) <= tol, "depth not symmetric: %.17g vs %.17g", c1.depth, c2.depth);
    fz_check_orders(a, b, &c1, &c2, &d1, &d2, lax);
    /* A sliver's edge lines stand up to its slack from its exact points (the header's limit): where a
     * point is inside or outside it is known only to that, and a depth measured from the inside (r + d)
     * and a distance measured from the outside (d - r) differ by twice it. */
    if (c1.count > 0 && d1.distance < 0)
        FZ_CHECK(fabs(c1.depth + d1.distance) <= tol + 2 * (fz_sliver_slack(a) + fz_sliver_slack(b)),
                 "depth %.17g but distance %.17g", c1.depth, d1.distance);
    /* With a chain or concave polygon, a contact is found exactly when the shapes overlap, in both
     * orders (its parts' contacts are taken as c2d_overlap takes them), even within rounding of
     * touching. */
    if (fz_is_compound(a) || fz_is_compound(b))
        FZ_CHECK(o1 == o2 && (c1.count > 0) == o1 && (c2.count > 0) == o2,
                 "overlap %d/%d but contacts %d/%d (distance %.17g)", o1, o2, c1.count, c2.count, d1.distance);
    /* A thin shape (a segment, a tiny ball) touching a concave polygon where several parts meet gets
     * a depth though nothing overlaps (known bug, FZ_STRICT_COMPOUND_TOUCH): its pushes are checked
     * only then. */
    int thin = !fz_strict_touch && fmin(fz_min_width(a), fz_min_width(b)) <=
                                       1e-9 * (1 + fmax(fz_shape_scale(a), fz_shape_scale(b)));
    if ((fz_is_compound(a) || fz_is_compound(b)) && !lax && !thin) {
        fz_check_push(a, b, &c1);
        fz_check_push(b, a, &c2);
    }
}

/* ---- the operations ------------------------------------------------------------------------ */

/* Stores a newly created shape in a slot (freeing what was there) after checking the call. */
static void fz_created(fz_state *st, int slot, c2d_status r, int should_accept, c2d_shape *out, c2d_shape *sentinel)
{
    fz_check_status(r);
    if (r != C2D_OK) {
        FZ_CHECK(out == sentinel, "rejected constructor wrote *out");
        FZ_CHECK(should_accept <= 0 || r == C2D_ERR_NO_MEMORY, "valid shape rejected with %d (%s)", (int)r,
                 c2d_status_string(r));
        return;
    }
    FZ_CHECK(should_accept >= 0, "invalid shape accepted");
    FZ_CHECK(out != NULL && out != sentinel, "accepted constructor left *out unset");
    fz_check_shape(out);
    c2d_shape_destroy(st->slot[slot]);
    st->slot[slot] = out;
    memset(&st->model[slot], 0, sizeof st->model[slot]); /* a chain or concave polygon sets its own */
}

/* A pointer that is never a valid shape: the constructors must not write it over on failure. */
static c2d_shape *fz_sentinel(void)
{
    static char mark;
    return (c2d_shape *)(void *)&mark;
}

static void op_circle(fz_state *st)
{
    int slot = fz_slot(st);
    double x = fz_number(st), y = fz_number(st), r = fz_number(st);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_circle_new(x, y, r, &out);
    int ok = fz_ok_number(x) && fz_ok_number(y) && fz_ok_number(r) && r > 0;
    fz_created(st, slot, s, ok ? 1 : -1, out, fz_sentinel());
    if (s == C2D_OK) {
        c2d_vec2 p;
        double rr;
        c2d_shape_get_position(out, &p);
        c2d_shape_get_radius(out, &rr);
        FZ_CHECK(p.x == x && p.y == y && rr == r, "circle stored (%g, %g, %g) for (%g, %g, %g)", p.x, p.y, rr, x, y, r);
    }
    FZ_CHECK(c2d_circle_new(x, y, r, NULL) == C2D_ERR_NULL || !ok, "NULL out accepted");
}

static void op_rect(fz_state *st)
{
    int slot = fz_slot(st);
    double x = fz_number(st), y = fz_number(st), w = fz_number(st), h = fz_number(st), a = fz_number(st);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_rect_new(x, y, w, h, a, &out);
    int ok = fz_ok_number(x) && fz_ok_number(y) && fz_ok_number(w) && fz_ok_number(h) && fz_ok_number(a) && w > 0 &&
             h > 0;
    fz_created(st, slot, s, ok ? 1 : -1, out, fz_sentinel());
    if (s == C2D_OK) {
        c2d_vec2 p;
        double aa;
        c2d_shape_get_position(out, &p);
        c2d_shape_get_angle(out, &aa);
        FZ_CHECK(p.x == x && p.y == y && aa == a, "rect stored at (%g, %g) angle %g", p.x, p.y, aa);
    }
}

static void op_two_point(fz_state *st, int capsule)
{
    int slot = fz_slot(st);
    c2d_vec2 a = fz_vec(st), b = fz_vec(st);
    double r = capsule ? fz_number(st) : 0.0;
    c2d_shape *out = fz_sentinel();
    c2d_status s = capsule ? c2d_capsule_new(a, b, r, &out) : c2d_segment_new(a, b, &out);
    int ok = fz_ok_vec(a) && fz_ok_vec(b) && !(a.x == b.x && a.y == b.y) && (!capsule || (fz_ok_number(r) && r > 0));
    fz_created(st, slot, s, ok ? 1 : -1, out, fz_sentinel());
}

static void op_capsule(fz_state *st)
{
    op_two_point(st, 1);
}

static void op_segment(fz_state *st)
{
    op_two_point(st, 0);
}

static int fz_rings_flat(const c2d_vec2 *const *ring, const int *cnt, int rings);

/* Polygons and hulls: raw points, or a regular k-gon (often valid) in either winding, possibly with
 * one vertex pushed inwards or duplicated. Also counts outside the accepted range. */
static void op_polygon_common(fz_state *st, int hull)
{
    int slot = fz_slot(st);
    uint8_t shape_byte = fz_byte(st);
    int n = shape_byte % 20;
    c2d_vec2 pts[FZ_MAX_POINTS];
    memset(pts, 0, sizeof pts);
    int pass_n = n;
    if (shape_byte == 0xFF)
        pass_n = -1;
    else if (shape_byte == 0xFE)
        pass_n = C2D_MAX_POLYGON_POINTS + 1; /* must be rejected before the points are read */
    uint8_t mode = fz_byte(st) % 4;
    if (mode == 0) {
        for (int i = 0; i < n; i++)
            pts[i] = fz_vec(st);
    } else {
        c2d_vec2 c = fz_vec(st);
        double rad = fz_number(st), phase = fz_number(st);
        for (int i = 0; i < n; i++) {
            double t = phase + 6.283185307179586 * i / (n ? n : 1);
            int k = mode == 3 ? n - 1 - i : i; /* mode 3: clockwise */
            pts[k] = fz_v(c.x + rad * cos(t), c.y + rad * sin(t));
        }
        if (mode == 2 && n > 0) {
            int k = fz_byte(st) % n;
            double f = fz_number(st);
            pts[k] = fz_v(c.x + (pts[k].x - c.x) * f, c.y + (pts[k].y - c.y) * f);
        }
    }
    int all_ok = 1;
    for (int i = 0; i < n; i++)
        all_ok &= fz_ok_vec(pts[i]);
    c2d_shape *out = fz_sentinel();
    c2d_status s = hull ? c2d_hull_new(pts, pass_n, &out) : c2d_polygon_new(pts, pass_n, &out);
    /* Convexity is the library's call; only the clear rejections are predicted. */
    int must_reject = !all_ok || pass_n < 3 || pass_n > C2D_MAX_POLYGON_POINTS;
    if (!must_reject) {
        /* Degeneracy is exact (issue 22, the header's rule): points all on one line (or fewer than 3
         * distinct ones) are refused as DEGENERATE, and other points are refused so only when they are
         * so thin that, measured from their centroid, rounding puts them on one line. */
        int a = 0, b = 1, collinear = 1;
        while (b < n && fz_veq(pts[b], pts[a]))
            b++;
        for (int k = b + 1; k < n && collinear; k++)
            collinear = fz_orient(pts[a], pts[b], pts[k]) == 0;
        const c2d_vec2 *ring = pts;
        if (collinear)
            FZ_CHECK(s == C2D_ERR_DEGENERATE, "%d points on one line gave %d, not DEGENERATE", n, (int)s);
        else if (s == C2D_ERR_DEGENERATE)
            FZ_CHECK(fz_rings_flat(&ring, &n, 1), "%d points not on one line, nor within rounding of one, were "
                                                  "refused as DEGENERATE", n);
    }
    fz_created(st, slot, s, must_reject ? -1 : 0, out, fz_sentinel());
    if (s != C2D_OK)
        return;
    int count = 0;
    c2d_shape_get_vertices(out, NULL, 0, &count);
    FZ_CHECK(count >= 3 && count <= n, "polygon of %d points has %d vertices", n, count);
    /* Every input point lies in a hull, and (up to dropped collinear points) on a polygon. */
    double tol = FZ_REL_TOL * fz_shape_scale(out);
    for (int i = 0; i < n; i++) {
        double d = fz_sd(out, pts[i]);
        FZ_CHECK(d <= tol, "input point %d (%.17g, %.17g) is %g outside its %s", i, pts[i].x, pts[i].y, d,
                 hull ? "hull" : "polygon");
    }
    c2d_vec2 centroid;
    double ctol = fmax(tol, fz_sliver_slack(out));
    c2d_shape_get_position(out, &centroid);
    FZ_CHECK(fz_sd(out, centroid) <= ctol, "centroid outside its polygon");
}

static void op_polygon(fz_state *st)
{
    op_polygon_common(st, 0);
}

static void op_hull(fz_state *st)
{
    op_polygon_common(st, 1);
}

static void op_clone(fz_state *st)
{
    int from = fz_slot(st), to = fz_slot(st);
    c2d_shape *out = fz_sentinel();
    c2d_status r = c2d_shape_clone(st->slot[from], &out);
    fz_check_status(r);
    if (!st->slot[from]) {
        FZ_CHECK(r == C2D_ERR_NULL && out == fz_sentinel(), "clone of NULL gave %d", (int)r);
        return;
    }
    FZ_CHECK(r == C2D_OK, "clone failed with %d", (int)r);
    fz_snapshot s1, s2;
    fz_snapshot_take(st->slot[from], &s1);
    fz_snapshot_take(out, &s2);
    FZ_CHECK(fz_snapshot_equal(&s1, &s2), "clone differs from its original");
    if (fz_is_compound(out)) {
        /* A compound's clone stands on its own: a copy of it moved, turned and destroyed leaves both
         * the original and the clone as they were, parts included. */
        c2d_shape *t = NULL;
        fz_snapshot s3;
        FZ_CHECK(c2d_shape_clone(out, &t) == C2D_OK, "clone of a clone failed");
        c2d_vec2 p = s1.pos;
        FZ_CHECK(c2d_shape_set_transform(t, fz_v(p.x * 0.5 + 1, p.y * 0.5 - 1), s1.angle * 0.5 + 1) == C2D_OK,
                 "moving a clone failed");
        fz_check_shape(t);
        c2d_shape_destroy(t);
        fz_snapshot_take(st->slot[from], &s3);
        FZ_CHECK(fz_snapshot_equal(&s1, &s3), "moving a clone's clone changed the original");
        fz_snapshot_take(out, &s3);
        FZ_CHECK(fz_snapshot_equal(&s2, &s3), "moving a clone's clone changed the clone");
    }
    if (from == to) {
        c2d_shape_destroy(out);
        return;
    }
    c2d_shape_destroy(st->slot[to]);
    st->slot[to] = out;
    st->model[to] = st->model[from];
}

static void op_destroy(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape_destroy(st->slot[slot]); /* NULL too: must be ignored */
    st->slot[slot] = NULL;
    memset(&st->model[slot], 0, sizeof st->model[slot]);
}

/* The transform setters. kind: 0 set_position, 1 set_angle, 2 set_transform, 3 move, 4 rotate.
 * A call is accepted exactly when its numbers, and the resulting position and angle, are finite and
 * within C2D_MAX_COORDINATE; accepted, it places the shape exactly as asked and moves it rigidly;
 * rejected, it changes nothing. */
static void op_transform(fz_state *st, int kind)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    c2d_vec2 p = fz_v(0, 0);
    double a = 0;
    if (kind != 1 && kind != 4)
        p = fz_vec(st);
    if (kind == 1 || kind == 2 || kind == 4)
        a = fz_number(st);
    fz_snapshot before, after;
    double scale_before = fz_shape_scale(s);
    if (s)
        fz_snapshot_take(s, &before);
    else
        memset(&before, 0, sizeof before);
    c2d_vec2 want_pos = before.pos;
    double want_angle = before.angle;
    int ok = 1;
    c2d_status r;
    switch (kind) {
    case 0:
        r = c2d_shape_set_position(s, p);
        ok = fz_ok_vec(p);
        want_pos = p;
        break;
    case 1:
        r = c2d_shape_set_angle(s, a);
        ok = fz_ok_number(a);
        want_angle = a;
        break;
    case 2:
        r = c2d_shape_set_transform(s, p, a);
        ok = fz_ok_vec(p) && fz_ok_number(a);
        want_pos = p;
        want_angle = a;
        break;
    case 3:
        r = c2d_shape_move(s, p);
        want_pos = fz_v(before.pos.x + p.x, before.pos.y + p.y);
        ok = fz_ok_vec(p) && fz_ok_vec(want_pos);
        break;
    default:
        r = c2d_shape_rotate(s, a);
        want_angle = before.angle + a;
        ok = fz_ok_number(a) && fz_ok_number(want_angle);
        break;
    }
    fz_check_status(r);
    if (!s) {
        FZ_CHECK(r == C2D_ERR_NULL, "NULL shape gave %d", (int)r);
        return;
    }
    fz_snapshot_take(s, &after);
    if (r != C2D_OK) {
        FZ_CHECK(!ok, "valid transform rejected with %d", (int)r);
        FZ_CHECK(fz_snapshot_equal(&before, &after), "rejected transform changed the shape");
        return;
    }
    FZ_CHECK(ok, "out-of-range transform accepted: pos (%g, %g) angle %g", want_pos.x, want_pos.y, want_angle);
    FZ_CHECK(after.pos.x == want_pos.x && after.pos.y == want_pos.y && after.angle == want_angle,
             "transform left pos (%.17g, %.17g) angle %.17g, wanted (%.17g, %.17g) %.17g", after.pos.x, after.pos.y,
             after.angle, want_pos.x, want_pos.y, want_angle);
    fz_check_shape(s);
    FZ_CHECK(after.type == before.type && after.count == before.count && after.radius == before.radius,
             "transform changed the kind, vertex count or radius");
    /* Rigid motion: every vertex keeps its distance from the position (up to the rounding of the
     * placement before and after, which scales with the coordinates at both places). */
    double tol = FZ_REL_TOL * fmax(scale_before, fz_shape_scale(s));
    for (int i = 0; i < after.count; i++) {
        double l0 = fz_len(fz_sub(before.v[i], before.pos)), l1 = fz_len(fz_sub(after.v[i], after.pos));
        FZ_CHECK(fabs(l0 - l1) <= tol + FZ_REL_TOL * l0, "vertex %d moved from radius %.17g to %.17g", i, l0, l1);
    }
}

static void op_set_position(fz_state *st) { op_transform(st, 0); }
static void op_set_angle(fz_state *st) { op_transform(st, 1); }
static void op_set_transform(fz_state *st) { op_transform(st, 2); }
static void op_move(fz_state *st) { op_transform(st, 3); }
static void op_rotate(fz_state *st) { op_transform(st, 4); }

static void op_pair(fz_state *st)
{
    int i = fz_slot(st), j = fz_slot(st);
    fz_check_slots(st, i, j);
}

/* Every pair of slots (including each shape with itself and with the empty slots). */
static void op_all_pairs(fz_state *st)
{
    if (++st->all_pairs_runs > FZ_ALL_PAIRS_MAX)
        return;
    for (int i = 0; i < FZ_SLOTS; i++)
        for (int j = i; j < FZ_SLOTS; j++)
            fz_check_slots(st, i, j);
}

/* contains_point and closest_point at one point, and how they agree. */
static void op_point(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    c2d_vec2 p = fz_vec(st);
    uint8_t which = fz_byte(st) % 3; /* 0 both outputs, 1 point only, 2 distance only */
    int in;
    c2d_vec2 q;
    double sd;
    memset(&in, FZ_POISON, sizeof in);
    memset(&q, FZ_POISON, sizeof q);
    memset(&sd, FZ_POISON, sizeof sd);
    c2d_status r1 = c2d_contains_point(s, p, &in);
    c2d_status r2 = c2d_closest_point(s, p, which == 2 ? NULL : &q, which == 1 ? NULL : &sd);
    fz_check_status(r1);
    fz_check_status(r2);
    int ok = s && fz_ok_vec(p);
    if (!ok) {
        FZ_CHECK(r1 != C2D_OK && r2 != C2D_OK, "bad point query accepted");
        FZ_CHECK(fz_is_poison(&in, sizeof in) && fz_is_poison(&q, sizeof q) && fz_is_poison(&sd, sizeof sd),
                 "output written on error");
        return;
    }
    FZ_CHECK(r1 == C2D_OK && r2 == C2D_OK, "point query failed: %d %d", (int)r1, (int)r2);
    FZ_CHECK(c2d_closest_point(s, p, NULL, NULL) == C2D_ERR_NULL, "closest_point with no outputs accepted");
    FZ_CHECK(c2d_contains_point(s, p, NULL) == C2D_ERR_NULL, "contains_point with NULL out accepted");
    FZ_CHECK(in == 0 || in == 1, "contains wrote %d", in);
    if (which == 1)
        FZ_CHECK(fz_is_poison(&sd, sizeof sd), "distance written though not asked for");
    if (which == 2)
        FZ_CHECK(fz_is_poison(&q, sizeof q), "point written though not asked for");
    /* Both outputs, to check them against each other. */
    FZ_CHECK(c2d_closest_point(s, p, &q, &sd) == C2D_OK, "closest_point failed");
    FZ_CHECK(fz_finite_vec(q) && isfinite(sd), "closest point (%g, %g) distance %g", q.x, q.y, sd);
    double tol = FZ_REL_TOL * fmax(fz_shape_scale(s), fmax(fabs(p.x), fabs(p.y)));
    FZ_CHECK(fabs(fz_len(fz_sub(q, p)) - fabs(sd)) <= tol, "closest point %.17g away but signed distance %.17g",
             fz_len(fz_sub(q, p)), sd);
    if (fabs(sd) > tol)
        FZ_CHECK(in == (sd < 0), "contains %d but signed distance %.17g", in, sd);
    /* The closest point is on the boundary: its own distance is zero. */
    if (fz_ok_vec(q))
        FZ_CHECK(fabs(fz_sd(s, q)) <= tol, "closest point is %.17g off the boundary", fz_sd(s, q));
    fz_check_model_point(st, slot, p);
}

/* Signed distance (c2d_distance, the SAT's answer, not the ray code's) between the shape and the
 * stretch of a ray from a to b; 0 (passing every check) when the stretch cannot be built as a segment
 * (a and b equal, or out of the accepted range). */
static double fz_stretch_sd(const c2d_shape *s, c2d_vec2 a, c2d_vec2 b)
{
    c2d_shape *seg = NULL;
    c2d_distance_result r;
    if (!fz_ok_vec(a) || !fz_ok_vec(b) || c2d_segment_new(a, b, &seg) != C2D_OK)
        return 0.0;
    c2d_status st = c2d_distance(seg, s, &r);
    c2d_shape_destroy(seg);
    FZ_CHECK(st == C2D_OK, "distance to a ray's stretch failed");
    return r.distance;
}

/* A ray hit must lie on the shape's boundary, within max_t, with a unit normal facing the ray. */
static void fz_check_ray(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t, const c2d_ray_hit *h)
{
    FZ_CHECK(h->hit == 0 || h->hit == 1, "hit wrote %d", h->hit);
    if (!h->hit) {
        FZ_CHECK(h->t == 0 && h->point.x == 0 && h->point.y == 0 && h->normal.x == 0 && h->normal.y == 0,
                 "a miss with non-zero fields");
        return;
    }
    FZ_CHECK(isfinite(h->t) && h->t >= 0 && h->t <= max_t, "hit at t = %g (max_t %g)", h->t, max_t);
    FZ_CHECK(fz_finite_vec(h->point), "hit point (%g, %g) not finite (t %g, direction (%g, %g))", h->point.x,
             h->point.y, h->t, d.x, d.y);
    fz_check_unit(h->normal, "ray normal");
    double scale = fmax(fz_shape_scale(s), fmax(fmax(fabs(o.x), fabs(o.y)), fmax(fabs(h->point.x), fabs(h->point.y))));
    double tol = FZ_REL_TOL * scale;
    c2d_vec2 want = fz_v(o.x + h->t * d.x, o.y + h->t * d.y);
    FZ_CHECK(fz_len(fz_sub(want, h->point)) <= tol, "hit point is not origin + t * direction");
    double sd = fz_sd(s, h->point);
    double radius = 0;
    c2d_shape_get_radius(s, &radius);
    if (h->t > 0)
        FZ_CHECK(fabs(sd) <= tol, "hit point (%.17g, %.17g) at t %.17g is %.17g off the boundary", h->point.x,
                 h->point.y, h->t, sd);
    else
        FZ_CHECK(sd <= tol, "hit at t = 0 from outside: origin %.17g from the shape", sd);
    double facing = h->normal.x * d.x + h->normal.y * d.y;
    FZ_CHECK(facing <= 1e-9 * fz_len(d), "ray normal (%g, %g) does not face the ray (%g, %g)", h->normal.x, h->normal.y,
             d.x, d.y);
    /* The hit is the first point: the stretch of the ray before it does not enter the shape. */
    /* (A compound's ray is judged by its rings instead, unless FZ_STRICT_COMPOUND_TOUCH=1.) */
    if (h->t > 0 && (fz_strict_touch || !fz_is_compound(s))) {
        double before = fz_stretch_sd(s, o, h->point);
        FZ_CHECK(before >= -tol, "the ray enters the shape %.17g deep before its hit at t = %.17g", -before, h->t);
    }
}

/* A ray reported as a miss stays out of the shape up to max_t (or well past the shape). */
static void fz_check_miss(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t)
{
    c2d_aabb b;
    c2d_shape_get_aabb(s, &b);
    double len = fz_len(d);
    if (!(len > 0) || !isfinite(len) || (fz_is_compound(s) && !fz_strict_touch))
        return; /* (a compound's miss is judged by its rings, see fz_check_ray) */
    /* Far enough to pass the whole shape: the distance to the far corner of its box, twice. */
    double reach = 2 * (fz_len(fz_sub(b.min, o)) + fz_len(fz_sub(b.max, o))) / len;
    double t = fmin(max_t, reach);
    c2d_vec2 end = fz_v(o.x + t * d.x, o.y + t * d.y);
    double scale = fmax(fz_shape_scale(s), fmax(fz_vec_mag(o), fz_vec_mag(end)));
    double sd = fz_stretch_sd(s, o, end);
    FZ_CHECK(sd >= -FZ_REL_TOL * scale, "a missed ray passes %.17g deep through the shape (up to t = %.17g)", -sd, t);
}

static void op_raycast(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    c2d_vec2 o = fz_vec(st), d = fz_vec(st);
    double max_t = fz_number(st);
    c2d_ray_hit h;
    memset(&h, FZ_POISON, sizeof h);
    c2d_status r = c2d_raycast(s, o, d, max_t, &h);
    fz_check_status(r);
    int ok = s && fz_ok_vec(o) && fz_ok_vec(d) && !isnan(max_t) && max_t >= 0 && !(d.x == 0 && d.y == 0);
    if (!ok) {
        FZ_CHECK(r != C2D_OK, "bad ray accepted");
        FZ_CHECK(fz_is_poison(&h, sizeof h), "output written on error");
        return;
    }
    FZ_CHECK(r == C2D_OK, "valid ray rejected with %d", (int)r);
    FZ_CHECK(c2d_raycast(s, o, d, max_t, NULL) == C2D_ERR_NULL, "NULL out accepted");
    fz_check_ray(s, o, d, max_t, &h);
    if (!h.hit)
        fz_check_miss(s, o, d, max_t);
    fz_check_model_ray(st, slot, o, d, max_t, &h);
}

/* A ray from a point aimed at the shape's position (which every kind contains) must hit by t = 1.
 * A segment's position is on its surface, so the crossing is at t = 1 up to rounding: max_t allows it. */
static void op_aimed_ray(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    c2d_vec2 o = fz_vec(st);
    if (!s || !fz_ok_vec(o))
        return;
    c2d_vec2 p;
    c2d_shape_get_position(s, &p);
    /* A chain's or concave polygon's position need not belong to it: it is aimed at its first part
     * instead (the mean of its vertices: the middle of a chain's first segment, a point inside a
     * concave polygon's first convex part). */
    c2d_vec2 pv[FZ_MAX_VERTS];
    int pn = 0;
    if (fz_is_compound(s)) {
        fz_part(s, 0, pv, FZ_MAX_VERTS, &pn);
        if (pn == 0)
            return;
        p = fz_v(0, 0);
        for (int i = 0; i < pn; i++)
            p = fz_v(p.x + pv[i].x / pn, p.y + pv[i].y / pn);
    }
    c2d_vec2 d = fz_sub(p, o);
    c2d_ray_hit h;
    /* The crossing is exact only to the rounding of the shape's placed vertices, which scales with
     * their coordinates, not with the length of the ray: a ray short against the coordinates may
     * cross a thin shape a little past t = 1. For a ray of denormal length that allowance makes
     * max_t infinite, which the API takes. */
    const double max_t = 1 + fmax(1e-6, FZ_REL_TOL * fmax(fz_shape_scale(s), fz_vec_mag(o)) / fz_len(d));
    c2d_status r = c2d_raycast(s, o, d, max_t, &h);
    if (d.x == 0 && d.y == 0) {
        FZ_CHECK(r == C2D_ERR_DEGENERATE, "zero direction gave %d", (int)r);
        return;
    }
    if (!fz_ok_vec(d))
        return; /* the difference itself may leave the accepted range */
    FZ_CHECK(r == C2D_OK, "aimed ray rejected with %d", (int)r);
    fz_check_ray(s, o, d, max_t, &h);
    fz_check_model_ray(st, slot, o, d, max_t, &h);
    double radius = 0;
    c2d_shape_get_radius(s, &radius);
    /* A precision limit, not a bug: aiming at the centre is only exact to the rounding of the ray's
     * direction, about 1e-16 of the distance, so a radius far below that may be missed. */
    if (radius > 0 && radius < 1e-12 * (fz_len(d) + fabs(p.x) + fabs(p.y)))
        return;
    /* The same for any shape whose whole extent is below that rounding (for a compound, the part
     * aimed at). */
    c2d_aabb box;
    c2d_shape_get_aabb(s, &box);
    for (int i = 0; i < pn; i++) {
        if (i == 0)
            box.min = box.max = pv[0];
        box.min = fz_v(fmin(box.min.x, pv[i].x), fmin(box.min.y, pv[i].y));
        box.max = fz_v(fmax(box.max.x, pv[i].x), fmax(box.max.y, pv[i].y));
    }
    if (fz_len(fz_sub(box.max, box.min)) < 1e-12 * (fz_len(d) + fabs(p.x) + fabs(p.y)))
        return;
    /* A sliver's position (its centroid, deep in the sliver) may lie outside its rounded edge lines. */
    if (fz_sliver_slack(s) > FZ_REL_TOL * fz_shape_scale(s))
        return;
    /* And a scene wholly below DBL_MIN / DBL_EPSILON: products with unit normals there are
     * subnormal, with fewer bits than the rounding checks assume (a point-sized rectangle at
     * (5e-324, 5e-324), aimed at from 5e-324 away). */
    if (fmax(fz_len(d), fmax(fz_vec_mag(o), fz_vec_mag(p))) < DBL_MIN / DBL_EPSILON)
        return;
    if (c2d_shape_get_type(s) == C2D_SHAPE_SEGMENT || c2d_shape_get_type(s) == C2D_SHAPE_CHAIN) {
        /* A segment has no area: where a ray crosses it at a grazing angle is ill-conditioned (the
         * crossing moves by about ulp / sin(angle)), so a hit is only required at a fair angle. So for
         * a chain's first segment. */
        c2d_vec2 v[2];
        int n = 0;
        if (c2d_shape_get_type(s) == C2D_SHAPE_CHAIN)
            fz_part(s, 0, v, 2, &n);
        else
            c2d_shape_get_vertices(s, v, 2, &n);
        c2d_vec2 e = fz_sub(v[1], v[0]);
        double sin_angle = fabs(d.x * e.y - d.y * e.x) / (fz_len(d) * fz_len(e));
        double scale = fmax(fz_shape_scale(s), fmax(fabs(o.x), fabs(o.y)));
        if (!(sin_angle * fz_len(d) >= 1e-6 * scale))
            return;
    }
    FZ_CHECK(h.hit, "ray from (%.17g, %.17g) aimed at the position (%.17g, %.17g) missed", o.x, o.y, p.x, p.y);
}

/* A ray at a feature of a shape as placed, where rounding decides: through a vertex (from a fuzzed
 * origin), along an edge's line, or out of a vertex or a point of an edge in a fuzzed direction. */
static void op_feature_ray(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    uint8_t how = fz_byte(st), which = fz_byte(st);
    c2d_vec2 o = fz_vec(st), d = fz_vec(st);
    double f = fz_number(st), max_t = how & 8 ? fz_number(st) : INFINITY;
    c2d_vec2 v[FZ_MAX_VERTS];
    int n = 0;
    if (!s || c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &n) != C2D_OK || n == 0)
        return;
    c2d_vec2 a = v[which % n], b = v[(which + 1) % n];
    switch (how % 4) {
    case 0: /* from o through the vertex */
        d = fz_sub(a, o);
        break;
    case 1: /* along the edge's line, from f edge lengths before its start */
        d = fz_sub(b, a);
        o = fz_v(a.x - f * d.x, a.y - f * d.y);
        break;
    case 2: /* out of the vertex */
        o = a;
        break;
    default: /* out of a point of the edge */
        f = isfinite(f) ? fabs(fmod(f, 1.0)) : 0.5;
        o = fz_v(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y));
        break;
    }
    if (!fz_ok_vec(o) || !fz_ok_vec(d) || (d.x == 0 && d.y == 0) || isnan(max_t) || max_t < 0)
        return;
    c2d_ray_hit h;
    FZ_CHECK(c2d_raycast(s, o, d, max_t, &h) == C2D_OK, "feature ray rejected");
    fz_check_ray(s, o, d, max_t, &h);
    if (!h.hit)
        fz_check_miss(s, o, d, max_t);
    fz_check_model_ray(st, slot, o, d, max_t, &h);
}

/* A new shape in a slot that shares a point with another slot's shape as placed (a segment or
 * capsule from its vertex, a triangle or an unturned rectangle with a corner there, a circle centred
 * there), then every pair query on the two. */
static void op_share(fz_state *st)
{
    int from = fz_slot(st), slot = fz_slot(st);
    uint8_t kind = fz_byte(st), which = fz_byte(st);
    c2d_vec2 p = fz_vec(st), q = fz_vec(st);
    double r = fz_number(st);
    c2d_shape *s = st->slot[from], *out = NULL;
    c2d_vec2 v[FZ_MAX_VERTS];
    int n = 0;
    if (!s || c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &n) != C2D_OK || n == 0)
        return;
    c2d_vec2 a = v[which % n];
    if (kind & 8) {
        /* Offsets scaled by an irrational factor: the new shape's own points then carry rounding too,
         * so that its placed copy of the shared point may differ from the original by an ulp. */
        p = fz_v(a.x + (p.x - a.x) * 0.70710678118654757, a.y + (p.y - a.y) * 0.70710678118654757);
        q = fz_v(a.x + (q.x - a.x) * 0.70710678118654757, a.y + (q.y - a.y) * 0.70710678118654757);
    }
    c2d_status r1;
    switch (kind % 5) {
    case 0: r1 = c2d_segment_new(a, p, &out); break;
    case 1: r1 = c2d_capsule_new(a, p, r, &out); break;
    case 2: {
        c2d_vec2 t[3] = {a, p, q};
        r1 = c2d_polygon_new(t, 3, &out);
        break;
    }
    case 3: r1 = c2d_rect_new(a.x + 0.5 * fabs(p.x), a.y + 0.5 * fabs(p.y), fabs(p.x), fabs(p.y), 0.0, &out); break;
    default: r1 = c2d_circle_new(a.x, a.y, r, &out); break;
    }
    fz_check_status(r1);
    if (r1 != C2D_OK)
        return; /* what each constructor accepts is checked by its own op */
    fz_check_shape(out);
    c2d_shape_destroy(st->slot[slot]);
    st->slot[slot] = out;
    memset(&st->model[slot], 0, sizeof st->model[slot]);
    if (slot != from)
        fz_check_pair(st->slot[from], out);
}

/* Vertex reads with every kind of capacity. */
static void op_vertices(fz_state *st)
{
    c2d_shape *s = st->slot[fz_slot(st)];
    int cap = (int)(int8_t)fz_byte(st) % 40;
    int use_null = cap <= 0 && (fz_byte(st) & 1);
    c2d_vec2 buf[40];
    int count;
    memset(buf, FZ_POISON, sizeof buf);
    memset(&count, FZ_POISON, sizeof count);
    c2d_status r = c2d_shape_get_vertices(s, use_null ? NULL : buf, cap, &count);
    fz_check_status(r);
    if (!s) {
        FZ_CHECK(r == C2D_ERR_NULL && fz_is_poison(&count, sizeof count), "NULL shape gave %d", (int)r);
        return;
    }
    if (cap < 0) {
        FZ_CHECK(r == C2D_ERR_RANGE && fz_is_poison(buf, sizeof buf), "negative capacity gave %d", (int)r);
        return;
    }
    FZ_CHECK(r == C2D_OK || r == C2D_ERR_CAPACITY, "get_vertices gave %d", (int)r);
    FZ_CHECK(count >= 1 && count <= FZ_MAX_VERTS, "count %d", count);
    if (use_null || cap < count)
        FZ_CHECK(fz_is_poison(buf, sizeof buf), "vertices written beyond the capacity");
    else
        FZ_CHECK(fz_is_poison(buf + count, sizeof buf - (size_t)count * sizeof buf[0]),
                 "vertices written past the count");
    FZ_CHECK(r == ((use_null || cap >= count) ? C2D_OK : C2D_ERR_CAPACITY), "capacity %d for %d vertices gave %d",
             cap, count, (int)r);
}

/* Getters and the status strings with arbitrary values, NULL outputs included. */
static void op_misc(fz_state *st)
{
    c2d_shape *s = st->slot[fz_slot(st)];
    int code = (int)(int8_t)fz_byte(st);
    FZ_CHECK(c2d_status_string((c2d_status)code) != NULL, "status string NULL for %d", code);
    FZ_CHECK(c2d_version() == C2D_VERSION_NUMBER && c2d_version_string() != NULL, "version mismatch");
    FZ_CHECK(c2d_shape_get_position(s, NULL) == C2D_ERR_NULL && c2d_shape_get_angle(s, NULL) == C2D_ERR_NULL &&
                 c2d_shape_get_aabb(s, NULL) == C2D_ERR_NULL && c2d_shape_get_radius(s, NULL) == C2D_ERR_NULL &&
                 c2d_shape_get_vertices(s, NULL, 0, NULL) == C2D_ERR_NULL,
             "NULL out accepted by a getter");
    FZ_CHECK(c2d_shape_clone(s, NULL) == C2D_ERR_NULL, "clone to NULL accepted");
    if (s)
        fz_check_shape(s);
    else
        FZ_CHECK(c2d_shape_get_type(NULL) == C2D_SHAPE_NONE, "type of NULL");
}

/* ---- swept collision ------------------------------------------------------------------------ */

/* A copy of s moved by k * d, or NULL when that leaves the accepted range (then the check using it
 * is skipped: the motion itself was valid, only the sampled position cannot be represented). */
static c2d_shape *fz_moved(const c2d_shape *s, c2d_vec2 d, double k)
{
    c2d_shape *c = NULL;
    if (c2d_shape_clone(s, &c) != C2D_OK)
        return NULL;
    if (c2d_shape_move(c, fz_v(k * d.x, k * d.y)) != C2D_OK) {
        c2d_shape_destroy(c);
        return NULL;
    }
    return c;
}

/* Signed distance between a moved by ka * da and b moved by kb * db; NAN when not representable. */
static double fz_dist_moved(const c2d_shape *a, c2d_vec2 da, double ka, const c2d_shape *b, c2d_vec2 db, double kb)
{
    c2d_shape *ma = fz_moved(a, da, ka), *mb = fz_moved(b, db, kb);
    double d = NAN;
    c2d_distance_result r;
    if (ma && mb && c2d_distance(ma, mb, &r) == C2D_OK)
        d = r.distance;
    c2d_shape_destroy(ma);
    c2d_shape_destroy(mb);
    return d;
}

static double fz_dist(const c2d_shape *a, const c2d_shape *b)
{
    return fz_dist_moved(a, fz_v(0, 0), 0, b, fz_v(0, 0), 0);
}

/* Tolerance of the swept checks: FZ_REL_TOL of the scene, displacements included (the sampled copies
 * are placed by position + k * d, which rounds at that size). */
static double fz_motion_tol(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db)
{
    double s = fmax(fz_shape_scale(a), fz_shape_scale(b));
    s = fmax(s, fmax(fz_vec_mag(da), fz_vec_mag(db)));
    return FZ_REL_TOL * 4 * (1.0 + s);
}

/* What c2d_sweep promises about one result (A moving by da, B by db). */
static void fz_check_toi(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, const c2d_toi *r)
{
    double tol = fz_motion_tol(a, da, b, db);
    c2d_vec2 rel = fz_sub(da, db);
    FZ_CHECK((int)r->state >= 0 && (int)r->state <= 2, "toi state %d", (int)r->state);
    FZ_CHECK(isfinite(r->t) && r->t >= 0 && r->t <= 1, "toi t %g", r->t);
    double d0 = fz_dist(a, b);
    if (r->state == C2D_TOI_NONE) {
        FZ_CHECK(r->t == 1 && r->depth == 0 && r->normal.x == 0 && r->normal.y == 0 && r->point.x == 0 &&
                     r->point.y == 0,
                 "NONE with t %g depth %g normal (%g, %g)", r->t, r->depth, r->normal.x, r->normal.y);
        FZ_CHECK(!(d0 < -tol), "NONE but the shapes overlap at t = 0 (distance %.17g, tol %g)", d0, tol);
        /* Moving together, the pair stands as at t = 0 all the way (its distance is t = 0's in exact
         * numbers); the copies placed further on differ only by the rounding of their placement, and
         * for two compounds that can change the answer: two coincident copies of a chain whose only
         * way apart is along one of its segments touch at one placement (depth 0) and lie 13.8 deep
         * at another, where rounding has moved an end of that segment by an ulp. */
        if (rel.x == 0 && rel.y == 0)
            return;
        for (int k = 1; k <= 8; k++) {
            double d = fz_dist_moved(a, da, k / 8.0, b, db, k / 8.0);
            FZ_CHECK(!(d < -tol), "NONE but the shapes overlap at t = %g (distance %.17g, tol %g)", k / 8.0, d, tol);
        }
        return;
    }
    fz_check_unit(r->normal, "toi normal");
    FZ_CHECK(fz_finite_vec(r->point), "toi point not finite");
    if (r->state == C2D_TOI_OVERLAP) {
        FZ_CHECK(r->t == 0 && isfinite(r->depth) && r->depth > 0, "OVERLAP with t %g depth %g", r->t, r->depth);
        FZ_CHECK(!(d0 > tol), "OVERLAP but the shapes are %.17g apart at t = 0 (tol %g)", d0, tol);
        /* (Two compounds: checked unless FZ_STRICT_COMPOUND_PAIRS=0, see fz_check_pair.) A chain or
         * concave polygon's overlap depth is the whole shape's push, as c2d_distance gives it (fixed
         * 2026-11-26: it was the deepest part's). */
        int lax = fz_is_compound(a) && fz_is_compound(b) && !fz_strict_pairs;
        FZ_CHECK(isnan(d0) || lax || fabs(r->depth + d0) <= tol, "OVERLAP depth %.17g but distance %.17g", r->depth,
                 d0);
        return;
    }
    FZ_CHECK(r->depth == 0, "HIT with depth %g", r->depth);
    FZ_CHECK(!(d0 < -tol), "HIT but the shapes overlap at t = 0 (distance %.17g, tol %g): should be OVERLAP", d0, tol);
    double dt = fz_dist_moved(a, da, r->t, b, db, r->t);
    FZ_CHECK(isnan(dt) || fabs(dt) <= tol, "HIT at t = %.17g but the shapes are %.17g apart there (tol %g)", r->t,
             dt, tol);
    for (int k = 0; k < 8; k++) {
        double tk = r->t * k / 8.0;
        double d = fz_dist_moved(a, da, tk, b, db, tk);
        FZ_CHECK(!(d < -tol), "HIT at t = %.17g but the shapes overlap earlier, at t = %.17g (distance %.17g)", r->t, tk,
                 d);
    }
    /* The motion approaches along the normal (A towards B), up to a grazing touch. */
    FZ_CHECK(r->normal.x * rel.x + r->normal.y * rel.y >= -1e-6 * fz_len(rel),
             "HIT normal (%g, %g) but the relative motion (%g, %g) moves apart", r->normal.x, r->normal.y, rel.x, rel.y);
    /* The point is on both surfaces at t. */
    c2d_shape *ma = fz_moved(a, da, r->t), *mb = fz_moved(b, db, r->t);
    if (ma && mb && fz_ok_vec(r->point)) {
        double sa = fz_sd(ma, r->point), sb = fz_sd(mb, r->point);
        c2d_shape_destroy(ma);
        c2d_shape_destroy(mb);
        FZ_CHECK(fabs(sa) <= tol && fabs(sb) <= tol, "HIT point (%.17g, %.17g) off the surfaces: %g and %g (tol %g)",
                 r->point.x, r->point.y, sa, sb, tol);
    } else {
        c2d_shape_destroy(ma);
        c2d_shape_destroy(mb);
    }
}

/* Whether a result is a grazing or starting touch, where two valid answers may differ. */
static int fz_toi_borderline(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, const c2d_toi *r)
{
    double tol = fz_motion_tol(a, da, b, db);
    c2d_vec2 rel = fz_sub(da, db);
    double d0 = fz_dist(a, b);
    if (!(fabs(d0) > tol))
        return 1;
    if (r->state == C2D_TOI_HIT && fabs(r->normal.x * rel.x + r->normal.y * rel.y) <= 1e-6 * fz_len(rel))
        return 1;
    /* A touch at the very end of the motion. */
    double d1 = fz_dist_moved(a, da, 1, b, db, 1);
    return !(fabs(d1) > tol);
}

static void op_sweep(fz_state *st)
{
    int i = fz_slot(st), j = fz_slot(st);
    c2d_vec2 da = fz_vec(st), db = fz_vec(st);
    uint8_t mode = fz_byte(st);
    if (mode & 1)
        db = fz_v(0, 0);
    const c2d_shape *a = st->slot[i], *b = st->slot[j];
    fz_kind_a = (int)c2d_shape_get_type(a);
    fz_kind_b = (int)c2d_shape_get_type(b);
    c2d_toi r;
    memset(&r, FZ_POISON, sizeof r);
    c2d_status s = c2d_sweep(a, da, b, db, &r);
    fz_check_status(s);
    if (!a || !b || !fz_ok_vec(da) || !fz_ok_vec(db)) {
        FZ_CHECK(s != C2D_OK, "bad sweep accepted");
        FZ_CHECK(fz_is_poison(&r, sizeof r), "sweep wrote its output on error");
        return;
    }
    /* A chain or concave polygon sweeps the other shape through its frame: a relative displacement
     * that, turned, reaches past the range is refused (known bug, FZ_STRICT_MISC). */
    c2d_vec2 rel0 = fz_sub(db, da);
    if (s == C2D_ERR_RANGE && !fz_strict_misc && (fz_is_compound(a) || fz_is_compound(b)) &&
        1.4142135623730951 * fz_vec_mag(rel0) > C2D_MAX_COORDINATE)
        return;
    FZ_CHECK(s == C2D_OK, "valid sweep rejected with %d", (int)s);
    FZ_CHECK(c2d_sweep(a, da, b, db, NULL) == C2D_ERR_NULL, "sweep with NULL out accepted");
    fz_check_toi(a, da, b, db, &r);
    /* The same motion with the arguments swapped: the same state and time, the normal negated. */
    c2d_toi r2;
    c2d_status s2 = c2d_sweep(b, db, a, da, &r2);
    if (s2 == C2D_ERR_RANGE && !fz_strict_misc && (fz_is_compound(a) || fz_is_compound(b)) &&
        1.4142135623730951 * fz_vec_mag(rel0) > C2D_MAX_COORDINATE)
        return;
    FZ_CHECK(s2 == C2D_OK, "swapped sweep rejected");
    fz_check_toi(b, db, a, da, &r2);
    if (r.state != r2.state) {
        FZ_CHECK(fz_toi_borderline(a, da, b, db, &r) && fz_toi_borderline(b, db, a, da, &r2),
                 "sweep state %d but %d with the arguments swapped", (int)r.state, (int)r2.state);
        return;
    }
    if (r.state == C2D_TOI_HIT) {
        /* Time along the normal: the part of the motion that decides the contact. */
        double tol = fz_motion_tol(a, da, b, db);
        c2d_vec2 rel = fz_sub(da, db);
        double along = fabs(r.normal.x * rel.x + r.normal.y * rel.y);
        FZ_CHECK(fabs(r.t - r2.t) * along <= tol || fz_toi_borderline(a, da, b, db, &r),
                 "sweep t %.17g but %.17g with the arguments swapped", r.t, r2.t);
    }
}

/* ---- static sets ---------------------------------------------------------------------------- */

/* Observable state of the set: count, every seam flag, and each member's placement, velocity and
 * one-way direction. */
typedef struct fz_set_snap {
    int count;
    unsigned char seam[FZ_SET_MAX][FZ_SET_EDGES];
    c2d_vec2 pos[FZ_SET_MAX], vel[FZ_SET_MAX], ow[FZ_SET_MAX];
    double angle[FZ_SET_MAX];
} fz_set_snap;

static int fz_vec_eq(c2d_vec2 a, c2d_vec2 b)
{
    return a.x == b.x && a.y == b.y;
}

/* The member getters of member i, checked against the harness's model: get_transform is where the
 * harness's copy stands (position to the bit, angle as a number: an unchanged angle of 0 keeps its
 * sign when -0 is set, as c2d_shape_set_transform does), velocity and one-way as last set. */
static void fz_set_members_snapshot(const fz_state *st, fz_set_snap *sn, int i)
{
    c2d_vec2 pos, cp;
    double angle, ca, only_angle = NAN;
    FZ_CHECK(c2d_static_set_get_transform(st->set, i, &pos, &angle) == C2D_OK, "get_transform(%d) failed", i);
    FZ_CHECK(c2d_static_set_get_transform(st->set, i, NULL, &only_angle) == C2D_OK &&
                 fz_same_bits(only_angle, angle),
             "get_transform(%d) with no position gave another angle", i);
    c2d_shape_get_position(st->set_shape[i], &cp);
    c2d_shape_get_angle(st->set_shape[i], &ca);
    FZ_CHECK(fz_same_bits(pos.x, cp.x) && fz_same_bits(pos.y, cp.y) && fz_same_bits(angle, ca),
             "member %d stands at (%.17g, %.17g) angle %.17g, not (%.17g, %.17g) angle %.17g", i, pos.x, pos.y, angle,
             cp.x, cp.y, ca);
    FZ_CHECK(c2d_static_set_get_velocity(st->set, i, &sn->vel[i]) == C2D_OK &&
                 fz_vec_eq(sn->vel[i], st->set_vel[i]),
             "member %d has velocity (%.17g, %.17g), not (%.17g, %.17g)", i, sn->vel[i].x, sn->vel[i].y,
             st->set_vel[i].x, st->set_vel[i].y);
    FZ_CHECK(c2d_static_set_get_one_way(st->set, i, &sn->ow[i]) == C2D_OK && fz_vec_eq(sn->ow[i], st->set_ow[i]),
             "member %d is one-way along (%.17g, %.17g), not (%.17g, %.17g)", i, sn->ow[i].x, sn->ow[i].y,
             st->set_ow[i].x, st->set_ow[i].y);
    sn->pos[i] = pos;
    sn->angle[i] = angle;
    FZ_CHECK(c2d_static_set_get_transform(st->set, i, NULL, NULL) == C2D_ERR_NULL &&
                 c2d_static_set_get_velocity(st->set, i, NULL) == C2D_ERR_NULL &&
                 c2d_static_set_get_one_way(st->set, i, NULL) == C2D_ERR_NULL,
             "a member getter accepted a NULL out");
}

/* The shortest edge of any part of s. */
static double fz_min_part_edge(const c2d_shape *s)
{
    double m = INFINITY;
    for (int k = 0; k < fz_part_count(s); k++) {
        c2d_vec2 v[FZ_MAX_VERTS];
        int n = 0;
        fz_part(s, k, v, FZ_MAX_VERTS, &n);
        for (int i = 0; i < n; i++)
            m = fmin(m, fz_len(fz_sub(v[(i + 1) % n], v[i])));
    }
    return m;
}

/* The joints of a concave polygon in a set: an edge of one part that another part has too (its ends
 * the other's ends in reverse order, within the rounding of placing each part) lies inside the
 * polygon and is always a seam, whatever else the set holds ("whose joints are always seams"). Edges
 * shorter than a few such roundings are left out (the seam test caps the gap at a quarter of an
 * edge), and so are the joints of a part that rounding has made as thin as that: where the outline
 * comes back to within rounding of its own edge (a pinch), the decomposition makes a triangle there,
 * and once it is flat its joints lie on the outline, which is surface. */
static void fz_check_joint_seams(const c2d_shape *s, const unsigned char *seam, int i)
{
    if (c2d_shape_get_type(s) != C2D_SHAPE_CONCAVE)
        return;
    static c2d_vec2 a[FZ_SET_EDGES], b[FZ_SET_EDGES];
    static int owner[FZ_SET_EDGES];
    static double width[FZ_SET_EDGES];
    int ne = 0;
    for (int k = 0; k < fz_part_count(s); k++) {
        c2d_vec2 v[FZ_MAX_VERTS];
        int n = 0;
        fz_part(s, k, v, FZ_MAX_VERTS, &n);
        if (k < FZ_SET_EDGES)
            width[k] = fz_points_width(v, n);
        for (int e = 0; e < n && ne < FZ_SET_EDGES; e++, ne++) {
            a[ne] = v[e];
            b[ne] = v[(e + 1) % n];
            owner[ne] = k;
        }
    }
    double tol = FZ_REL_TOL * fz_shape_scale(s);
    for (int e = 0; e < ne; e++) {
        if (!(fz_len(fz_sub(b[e], a[e])) > 8 * tol) || !(width[owner[e]] > 8 * tol))
            continue;
        for (int f = 0; f < ne; f++)
            if (owner[f] != owner[e] && fz_len(fz_sub(a[e], b[f])) <= tol && fz_len(fz_sub(b[e], a[f])) <= tol) {
                if (!(width[owner[f]] > 8 * tol))
                    break; /* the other part is flat: the joint may be outline */
                FZ_CHECK(seam[e] == 2, "edge %d of concave member %d, a joint between parts %d and %d, is no seam", e,
                         i, owner[e], owner[f]);
                break;
            }
    }
}

static void fz_set_snapshot(const fz_state *st, fz_set_snap *sn)
{
    memset(sn, 0, sizeof *sn);
    if (!st->set)
        return;
    FZ_CHECK(c2d_static_set_get_count(st->set, &sn->count) == C2D_OK && sn->count == st->set_n, "set count %d, not %d",
             sn->count, st->set_n);
    for (int i = 0; i < st->set_n; i++) {
        /* A chain's or concave polygon's edges are its parts', part 0's first. */
        int ne = fz_edge_count(st->set_shape[i]);
        FZ_CHECK(ne <= FZ_SET_EDGES, "shape %d has %d edges", i, ne);
        for (int e = 0; e < ne; e++) {
            int out = -1;
            FZ_CHECK(c2d_static_set_is_seam(st->set, i, e, &out) == C2D_OK && (out == 0 || out == 1),
                     "is_seam(%d, %d) failed or wrote %d", i, e, out);
            sn->seam[i][e] = (unsigned char)(out + 1);
        }
        int out = 7;
        FZ_CHECK(c2d_static_set_is_seam(st->set, i, ne, &out) == C2D_ERR_RANGE && out == 7,
                 "is_seam past the last edge accepted");
        FZ_CHECK(c2d_static_set_is_seam(st->set, i, -1, &out) == C2D_ERR_RANGE && out == 7,
                 "is_seam of edge -1 accepted");
        fz_set_members_snapshot(st, sn, i);
        /* Shapes without area neither make nor get seams... and a shape with a radius has none at all,
         * wherever it is moved. */
        double r = 0;
        c2d_shape_get_radius(st->set_shape[i], &r);
        for (int e = 0; r > 0 && e < FZ_SET_EDGES; e++)
            FZ_CHECK(sn->seam[i][e] != 2, "rounded shape %d has a seam on edge %d", i, e);
        /* Disabled or not (a disabled member keeps its flags). The parts join within the caller's
         * tolerance, or by default their own (1e-9 of their coordinates, whatever else the set holds). */
        double jt = st->set_seam_tol > 0 ? st->set_seam_tol : 1e-9 * (1 + fz_shape_scale(st->set_shape[i]));
        if (fz_strict_joints || 16 * jt <= fz_min_part_edge(st->set_shape[i]))
            fz_check_joint_seams(st->set_shape[i], sn->seam[i], i);
    }
    /* Members out of range: C2D_ERR_RANGE, nothing written. */
    c2d_vec2 v;
    double a;
    memset(&v, FZ_POISON, sizeof v);
    memset(&a, FZ_POISON, sizeof a);
    for (int k = 0; k < 2; k++) {
        int i = k ? st->set_n : -1;
        FZ_CHECK(c2d_static_set_get_transform(st->set, i, &v, &a) == C2D_ERR_RANGE &&
                     c2d_static_set_get_velocity(st->set, i, &v) == C2D_ERR_RANGE &&
                     c2d_static_set_get_one_way(st->set, i, &v) == C2D_ERR_RANGE,
                 "a member getter accepted member %d of %d", i, st->set_n);
        FZ_CHECK(fz_is_poison(&v, sizeof v) && fz_is_poison(&a, sizeof a), "a member getter wrote on error");
    }
}

static void fz_set_free(fz_state *st)
{
    c2d_static_set_destroy(st->set);
    st->set = NULL;
    for (int i = 0; i < st->set_n; i++)
        c2d_shape_destroy(st->set_shape[i]);
    st->set_n = 0;
}

/* Adds a copy of s to the list of shapes handed to c2d_static_set_new. */
static void fz_set_push(c2d_shape **list, int *n, const c2d_shape *s)
{
    if (*n < FZ_SET_MAX && s && c2d_shape_clone(s, &list[*n]) == C2D_OK)
        (*n)++;
}

/* A one-sided chain in the set whose segments block from their own right (as made, or re-placed):
 * c2d_static_set_get_one_way reports its first segment's, the unit vector right of it where it now
 * stands (within a few ulps of the harness's own; the model keeps the library's). A direction given
 * with c2d_static_set_set_one_way applies to every segment and should stay when the chain is
 * re-placed; the library drops it then (fuzz/known/set-one-sided-chain-forgets-its-one-way), and
 * unless FZ_STRICT_CHAIN_ONE_WAY=1 the model does so too, so that fuzzing goes on. */
static void fz_set_chain_faces(fz_state *st, int i)
{
    if (!st->set_os[i])
        return;
    if (!st->set_seg[i]) {
        if (fz_strict_chain)
            return;
        st->set_seg[i] = 1;
    }
    c2d_vec2 got, right = fz_chain_right(st->set_shape[i], 0);
    FZ_CHECK(c2d_static_set_get_one_way(st->set, i, &got) == C2D_OK, "get_one_way(%d) failed", i);
    /* A first segment whose ends round to one point where it now stands has no side: the library
     * keeps the direction it had (any unit vector, or zero, is taken). */
    if (right.x == 0 && right.y == 0)
        FZ_CHECK((got.x == 0 && got.y == 0) || fabs(fz_len(got) - 1) <= 1e-15,
                 "one-sided chain's collapsed first segment: one-way (%.17g, %.17g)", got.x, got.y);
    else
        fz_check_one_way_dir(right, got, "one-sided chain's first segment");
    st->set_ow[i] = got;
}

/* A static set from chosen live slots plus, optionally, a row of touching tiles (so that seams arise),
 * and the bad inputs of c2d_static_set_new. */
static void op_set_new(fz_state *st)
{
    uint8_t pick = fz_byte(st), mode = fz_byte(st);
    c2d_shape *list[FZ_SET_MAX];
    int n = 0, list_os[FZ_SET_MAX];
    memset(list_os, 0, sizeof list_os);
    for (int i = 0; i < FZ_SLOTS; i++)
        if (pick & (1u << i)) {
            fz_set_push(list, &n, st->slot[i]);
            if (n > 0 && st->slot[i])
                list_os[n - 1] = st->model[i].kind == C2D_SHAPE_CHAIN && st->model[i].one_sided;
        }
    if (mode & 1) {
        int k = 2 + fz_byte(st) % 7;
        c2d_vec2 o = fz_vec(st);
        double w = fz_number(st), h = fz_number(st), a = (mode & 2) ? fz_number(st) : 0.0;
        int column = (mode & 0x80) != 0;
        for (int i = 0; i < k && n < FZ_SET_MAX; i++) {
            double c = cos(a), s = sin(a), step = column ? h : w;
            double dx = column ? -s : c, dy = column ? c : s;
            c2d_shape *t = NULL;
            if (c2d_rect_new(o.x + i * step * dx, o.y + i * step * dy, w, h, a, &t) == C2D_OK)
                list[n++] = t;
        }
    }
    c2d_static_set_options opt;
    memset(&opt, 0, sizeof opt);
    int use_opt = (mode & 4) != 0;
    if (use_opt) {
        opt.seam_tolerance = (mode & 0x40) ? fz_number(st) : 0.0;
        opt.no_auto_seams = (mode & 8) != 0;
    }
    int variant = (mode >> 4) & 3; /* 0, 1: valid; 2: n = -1; 3: a NULL element */
    const c2d_shape *arg[FZ_SET_MAX + 1];
    for (int i = 0; i < n; i++)
        arg[i] = list[i];
    int pass_n = n;
    if (variant == 2)
        pass_n = -1 - (int)(mode & 0x40) * 1000;
    else if (variant == 3)
        arg[pass_n++] = NULL;
    int ok = variant < 2 && (!use_opt || (isfinite(opt.seam_tolerance) && opt.seam_tolerance >= 0 &&
                                          opt.seam_tolerance <= C2D_MAX_COORDINATE));
    /* A refused seam tolerance with a chain or concave polygon among the shapes leaks (known bug,
     * FZ_STRICT_MISC): not asked by default, so that the leak checker does not stop the fuzzing. */
    int has_compound = 0;
    for (int i = 0; i < n; i++)
        has_compound |= fz_is_compound(list[i]);
    if (variant < 2 && !ok && has_compound && !fz_strict_misc) {
        for (int i = 0; i < n; i++)
            c2d_shape_destroy(list[i]);
        return;
    }
    c2d_static_set *out = (c2d_static_set *)(void *)fz_sentinel();
    c2d_status s = c2d_static_set_new(arg, pass_n, use_opt ? &opt : NULL, &out);
    fz_check_status(s);
    FZ_CHECK(c2d_static_set_new(arg, pass_n, use_opt ? &opt : NULL, NULL) == C2D_ERR_NULL, "set_new to NULL accepted");
    if (n > 0)
        FZ_CHECK(c2d_static_set_new(NULL, n, NULL, &out) == C2D_ERR_NULL, "set_new of NULL shapes accepted");
    if (!ok) {
        FZ_CHECK(s != C2D_OK, "bad static set accepted (variant %d, tolerance %g)", variant, opt.seam_tolerance);
        FZ_CHECK(out == (c2d_static_set *)(void *)fz_sentinel(), "rejected set_new wrote *out");
        for (int i = 0; i < n; i++)
            c2d_shape_destroy(list[i]);
        return;
    }
    FZ_CHECK(s == C2D_OK || s == C2D_ERR_NO_MEMORY, "valid static set rejected with %d", (int)s);
    if (s != C2D_OK) {
        for (int i = 0; i < n; i++)
            c2d_shape_destroy(list[i]);
        return;
    }
    fz_set_free(st);
    st->set = out;
    st->set_n = n;
    st->set_seam_tol = use_opt ? opt.seam_tolerance : 0.0;
    st->set_mag = 0;
    for (int i = 0; i < n; i++) {
        st->set_shape[i] = list[i];
        st->set_on[i] = 1;
        st->set_vel[i] = st->set_ow[i] = fz_v(0, 0);
        st->set_mag = fmax(st->set_mag, fz_shape_scale(list[i]));
        st->set_os[i] = st->set_seg[i] = list_os[i];
        fz_set_chain_faces(st, i);
    }
    fz_set_snap sn;
    fz_set_snapshot(st, &sn);
}

/* An index for a set call: usually valid, sometimes -1 or n (rejected). */
static int fz_set_index(fz_state *st)
{
    int n = st->set_n;
    int k = (int)(fz_byte(st) % (unsigned)(n + 2)) - 1;
    if (fz_trace)
        fprintf(stderr, " <%d>", k);
    return k;
}

static void op_set_enable(fz_state *st)
{
    int i = fz_set_index(st);
    uint8_t b = fz_byte(st);
    int enabled = (b & 0x80) ? (int)(int8_t)b : (b & 1);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_set_enabled(st->set, i, enabled);
    fz_check_status(s);
    int ok = st->set && i >= 0 && i < st->set_n;
    if (ok && s == C2D_OK)
        st->set_on[i] = enabled != 0; /* before the snapshot, which checks enabled members' joints */
    fz_set_snapshot(st, &after);
    if (!ok) {
        FZ_CHECK(s != C2D_OK, "bad set_enabled accepted");
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected set_enabled changed the set");
        return;
    }
    FZ_CHECK(s == C2D_OK, "set_enabled rejected with %d", (int)s);
}

static void op_set_mark(fz_state *st)
{
    int i = fz_set_index(st), j = fz_set_index(st);
    double tol = fz_number(st);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_mark_neighbours(st->set, i, j, tol);
    fz_check_status(s);
    int ok = st->set && i >= 0 && j >= 0 && i < st->set_n && j < st->set_n && i != j && fz_ok_number(tol) && tol > 0;
    fz_set_snapshot(st, &after);
    if (!ok) {
        FZ_CHECK(s != C2D_OK, "bad mark_neighbours accepted");
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected mark_neighbours changed the set");
        return;
    }
    FZ_CHECK(s == C2D_OK || s == C2D_ERR_NO_MEMORY, "mark_neighbours rejected with %d", (int)s);
    /* Marking only adds seams. */
    for (int k = 0; k < st->set_n; k++)
        for (int e = 0; e < FZ_SET_EDGES; e++)
            FZ_CHECK(!(before.seam[k][e] == 2 && after.seam[k][e] == 1) || !st->set_on[k] || k == i || k == j,
                     "mark_neighbours(%d, %d) removed the seam of edge %d of shape %d", i, j, e, k);
}

static int fz_member_moves(const fz_state *st, int i)
{
    return st->set_vel[i].x != 0 || st->set_vel[i].y != 0;
}

/* One-way: a direction set, or a one-sided chain whose segments block from their own right. */
static int fz_member_one_way(const fz_state *st, int i)
{
    return st->set_seg[i] || st->set_ow[i].x != 0 || st->set_ow[i].y != 0;
}

/* Smallest signed distance from s (moved by k * d) to the enabled shapes of the set whose response
 * stops it (resp NULL: all); *which gets the shape, -1 if none. NAN when s cannot be placed there.
 * Each member stands where its velocity has taken it at time tm of the call (position + velocity *
 * tm; the calls do not move members, but sweep them by that much). One-way members are left out: a
 * mover may lie inside one (it passes through from below and from the sides, and push-outs ignore
 * them), so no never-inside property holds for them. A moving member whose place at tm leaves the
 * coordinate range is left out too (the motion was valid; only that sample cannot be placed). */
static double fz_set_clearance(const fz_state *st, const c2d_shape *s, c2d_vec2 d, double k, double tm,
                               const c2d_response *resp, int *which)
{
    double best = INFINITY;
    *which = -1;
    c2d_shape *m = fz_moved(s, d, k);
    if (!m)
        return NAN;
    for (int i = 0; i < st->set_n; i++) {
        if (!st->set_on[i] || fz_member_one_way(st, i) ||
            (resp && (resp[i] == C2D_RESPONSE_NONE || resp[i] == C2D_RESPONSE_CROSS)))
            continue;
        c2d_shape *moved = fz_member_moves(st, i) && tm != 0 ? fz_moved(st->set_shape[i], st->set_vel[i], tm) : NULL;
        if (fz_member_moves(st, i) && tm != 0 && !moved)
            continue;
        c2d_distance_result r;
        if (c2d_distance(m, moved ? moved : st->set_shape[i], &r) == C2D_OK && r.distance < best) {
            best = r.distance;
            *which = i;
        }
        c2d_shape_destroy(moved);
    }
    c2d_shape_destroy(m);
    return best;
}

/* The size of a set scene: the mover, its displacement, and every member where it stands and where
 * its velocity takes it over the call's time `horizon`, and the members as the set was made (the
 * set's touching tolerance follows the shapes as built and the moved members where they stand; a
 * member that went far and came back leaves it as it was: corpus set-tolerance-after-a-far-member-
 * came-back). */
static double fz_set_scale(const fz_state *st, const c2d_shape *mover, c2d_vec2 d, double horizon)
{
    double s = fmax(fz_shape_scale(mover), fz_vec_mag(d));
    for (int i = 0; i < st->set_n; i++) {
        double m = fz_shape_scale(st->set_shape[i]);
        s = fmax(s, m + fz_vec_mag(st->set_vel[i]) * fabs(horizon));
    }
    return fmax(s, st->set_mag);
}

/* The largest velocity of the enabled members (0: none moves). */
static double fz_set_max_speed(const fz_state *st)
{
    double v = 0;
    for (int i = 0; i < st->set_n; i++)
        if (st->set_on[i])
            v = fmax(v, fz_len(st->set_vel[i]));
    return v;
}

static void op_set_sweep(fz_state *st)
{
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_vec2 d = fz_vec(st);
    c2d_toi r;
    int index;
    memset(&r, FZ_POISON, sizeof r);
    memset(&index, FZ_POISON, sizeof index);
    fz_set_snap before, after;
    int compound = m && fz_is_compound(m);
    if (compound)
        fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_sweep(st->set, m, d, &r, &index);
    fz_check_status(s);
    if (!st->set || !m || !fz_ok_vec(d) || compound) {
        FZ_CHECK(s != C2D_OK, "bad set sweep accepted");
        FZ_CHECK(fz_is_poison(&r, sizeof r) && fz_is_poison(&index, sizeof index), "set sweep wrote on error");
        /* A chain or concave polygon is no mover: C2D_ERR_NOT_CONVEX, and nothing changes. */
        if (st->set && compound && fz_ok_vec(d)) {
            FZ_CHECK(s == C2D_ERR_NOT_CONVEX, "set sweep of a compound mover gave %d", (int)s);
            fz_set_snapshot(st, &after);
            FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a refused set sweep changed the set");
        }
        return;
    }
    FZ_CHECK(s == C2D_OK, "set sweep rejected with %d", (int)s);
    if (fz_trace)
        fprintf(stderr, " -> state %d t %.17g index %d normal (%.17g, %.17g) depth %.17g", (int)r.state, r.t, index,
                r.normal.x, r.normal.y, r.depth);
    FZ_CHECK(c2d_static_set_sweep(st->set, m, d, NULL, &index) == C2D_ERR_NULL &&
                 c2d_static_set_sweep(st->set, m, d, &r, NULL) == C2D_ERR_NULL,
             "set sweep with a NULL out accepted");
    FZ_CHECK((int)r.state >= 0 && (int)r.state <= 2 && isfinite(r.t) && r.t >= 0 && r.t <= 1, "set sweep state %d t %g",
             (int)r.state, r.t);
    FZ_CHECK(r.state == C2D_TOI_NONE ? index == -1 : (index >= 0 && index < st->set_n && st->set_on[index]),
             "set sweep state %d with index %d", (int)r.state, index);
    /* A sweep lasts one unit of time: moving members move by their velocity over it. */
    double tol = FZ_REL_TOL * 4 * (1 + fz_set_scale(st, m, d, 1));
    int w;
    double d0 = fz_set_clearance(st, m, d, 0, 0, NULL, &w);
    if (r.state == C2D_TOI_OVERLAP) {
        /* index is the shape whose surface is the shortest way out, which need not be one the mover
         * is in (the top of the brick beside it): only some shape must be overlapped. */
        FZ_CHECK(r.t == 0 && isfinite(r.depth) && r.depth > 0, "set OVERLAP with t %g depth %g", r.t, r.depth);
        fz_check_unit(r.normal, "set sweep normal");
        FZ_CHECK(!(d0 > tol), "set OVERLAP with shape %d but the mover is %.17g clear of the set", index, d0);
        return;
    }
    FZ_CHECK(!(d0 < -tol), "set sweep state %d but the mover starts %.17g inside shape %d", (int)r.state, d0, w);
    /* Never through a shape: clear of all of them up to t. Unless the set's seam tolerance is as large
     * as the mover: a gap that the tolerance counts as a seam hides the faces beside it and stays
     * open, as the header says ("keep the tolerance below the size of your movers"). */
    c2d_aabb mb;
    c2d_shape_get_aabb(m, &mb);
    double mover_size = fmin(mb.max.x - mb.min.x, mb.max.y - mb.min.y);
    for (int k = 1; k <= 8 && !(st->set_seam_tol >= mover_size); k++) {
        double dk = fz_set_clearance(st, m, d, r.t * k / 8.0, r.t * k / 8.0, NULL, &w);
        FZ_CHECK(!(dk < -tol), "set sweep t %.17g but the mover is %.17g inside shape %d at t = %.17g", r.t, dk, w,
                 r.t * k / 8.0);
    }
    /* No earlier than the first contact of c2d_sweep with any enabled shape, moving with its velocity
     * (seams and one-way members only drop contacts). */
    double first = 1, rel_len = fz_len(d);
    for (int i = 0; i < st->set_n; i++) {
        c2d_toi ri;
        if (st->set_on[i])
            rel_len = fmax(rel_len, fz_len(fz_sub(d, st->set_vel[i])));
        if (st->set_on[i] && c2d_sweep(m, d, st->set_shape[i], st->set_vel[i], &ri) == C2D_OK) {
            if (fz_trace)
                fprintf(stderr, " [sweep %d: state %d t %.17g]", i, (int)ri.state, ri.t);
            if (ri.state != C2D_TOI_NONE && ri.t < first)
                first = ri.t;
        }
    }
    /* (Starting within tolerance of touching, a start that moves in is a hit at 0 or not depending on
     * which nearby feature decides: both are valid there. So is a path that passes within tolerance of
     * a shape c2d_sweep, which is exact, sees it miss by less: the set calls that grazing a touch.) */
    double di =
        r.state == C2D_TOI_HIT ? fz_dist_moved(m, d, r.t, st->set_shape[index], st->set_vel[index], r.t) : NAN;
    /* A one-way chain or concave polygon blocks part by part: the mover touches the part it met, and
     * may overlap another it started in (and passes through). */
    if (r.state == C2D_TOI_HIT && fz_member_one_way(st, index) && fz_is_compound(st->set_shape[index])) {
        c2d_shape *mt = fz_moved(m, d, r.t);
        if (mt)
            di = fz_part_distance(mt, st->set_shape[index],
                                  fz_v(st->set_vel[index].x * r.t, st->set_vel[index].y * r.t));
        c2d_shape_destroy(mt);
    }
    FZ_CHECK((first - r.t) * rel_len <= tol || !(d0 > tol) || fabs(di) <= tol,
             "set sweep t %.17g before the first contact %.17g", r.t, first);
    if (r.state == C2D_TOI_HIT) {
        fz_check_unit(r.normal, "set sweep normal");
        FZ_CHECK(isnan(di) || fabs(di) <= tol, "set sweep HIT on shape %d at t %.17g but %.17g apart there", index, r.t,
                 di);
        /* A one-way member blocks only where it is met from the side its direction points to: its
         * surface normal (minus the sweep's) has a positive part along the direction. */
        /* A one-sided chain's segments each block from their right: one near the point does. */
        if (st->set_seg[index])
            FZ_CHECK(fz_chain_side_ok(st->set_shape[index], fz_v(st->set_vel[index].x * r.t, st->set_vel[index].y * r.t),
                                      r.point, fz_v(-r.normal.x, -r.normal.y), tol),
                     "set sweep stopped by one-sided chain %d from the left of its segments at (%.17g, %.17g), normal "
                     "(%.17g, %.17g)",
                     index, r.point.x, r.point.y, r.normal.x, r.normal.y);
        else if (fz_member_one_way(st, index))
            FZ_CHECK(-(r.normal.x * st->set_ow[index].x + r.normal.y * st->set_ow[index].y) > 0,
                     "set sweep stopped by one-way member %d (direction (%.17g, %.17g)) from the side, normal (%.17g, %.17g)",
                     index, st->set_ow[index].x, st->set_ow[index].y, r.normal.x, r.normal.y);
    }
    /* And it does block there: a mover that starts clear of a one-way member and meets it first (by
     * c2d_sweep, each moving) from the side it blocks, clearly (its surface normal 1e-6 along the
     * direction) and not grazing, stops no later than that contact. Not for movers no larger than the
     * seam tolerance, as above. */
    for (int j = 0; j < st->set_n && !(st->set_seam_tol >= mover_size); j++) {
        c2d_toi rj;
        if (!st->set_on[j] || !fz_member_one_way(st, j) || st->set_seg[j] ||
            c2d_sweep(m, d, st->set_shape[j], st->set_vel[j], &rj) != C2D_OK ||
            rj.state != C2D_TOI_HIT)
            continue;
        c2d_vec2 rel = fz_sub(d, st->set_vel[j]), u = st->set_ow[j];
        double approach = rj.normal.x * rel.x + rj.normal.y * rel.y, facing = -(rj.normal.x * u.x + rj.normal.y * u.y);
        double dj0 = fz_dist(m, st->set_shape[j]);
        if (!(dj0 > tol) || !(approach > 1e-6 * fz_len(rel)) || !(facing > 1e-6))
            continue;
        FZ_CHECK((r.t - rj.t) * fz_len(rel) <= tol,
                 "set sweep went on to t %.17g past one-way member %d (direction (%.17g, %.17g)), met from the side it "
                 "blocks at t %.17g (normal (%.17g, %.17g))",
                 r.t, j, u.x, u.y, rj.t, -rj.normal.x, -rj.normal.y);
    }
}

/* Contacts with one-way members (every contact of a set move or ball step, in fz_all): a push-out
 * never names one (push-outs ignore them), and a contact whose response stops or deflects the mover
 * is met from the side the member blocks (the normal, towards the mover, has a positive part along
 * its direction). Crossings are reported whichever side they enter from. */
static void fz_check_one_way_contacts(const fz_state *st, const c2d_sweep_contact *c, int n, double dt, double scale)
{
    for (int k = 0; k < n; k++) {
        int j = c[k].index;
        if (j < 0 || j >= st->set_n || !fz_member_one_way(st, j))
            continue;
        c2d_vec2 u = st->set_ow[j];
        FZ_CHECK(!c[k].pushed_out, "contact %d: pushed out of one-way member %d", k, j);
        /* A one-sided chain: a segment at the contact point (the chain where its velocity had taken
         * it then) has the normal on its right. */
        if (st->set_seg[j] && c[k].response != C2D_RESPONSE_CROSS) {
            double tm = c[k].t * dt;
            FZ_CHECK(fz_chain_side_ok(st->set_shape[j], fz_v(st->set_vel[j].x * tm, st->set_vel[j].y * tm), c[k].point,
                                      c[k].normal, FZ_REL_TOL * 4 * (1 + scale)),
                     "contact %d (response %d) with one-sided chain %d from the left of its segments at (%.17g, %.17g), "
                     "normal (%.17g, %.17g)",
                     k, (int)c[k].response, j, c[k].point.x, c[k].point.y, c[k].normal.x, c[k].normal.y);
            continue;
        }
        if (c[k].response != C2D_RESPONSE_CROSS)
            FZ_CHECK(c[k].normal.x * u.x + c[k].normal.y * u.y > 0,
                     "contact %d (response %d) with one-way member %d (direction (%.17g, %.17g)) from the side, normal "
                     "(%.17g, %.17g)",
                     k, (int)c[k].response, j, u.x, u.y, c[k].normal.x, c[k].normal.y);
    }
}

static void op_set_push_out(fz_state *st)
{
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_vec2 p;
    memset(&p, FZ_POISON, sizeof p);
    c2d_status s = c2d_static_set_push_out(st->set, m, &p);
    fz_check_status(s);
    if (!st->set || !m) {
        FZ_CHECK(s == C2D_ERR_NULL && fz_is_poison(&p, sizeof p), "bad push_out gave %d", (int)s);
        return;
    }
    if (fz_is_compound(m)) {
        FZ_CHECK(s == C2D_ERR_NOT_CONVEX && fz_is_poison(&p, sizeof p), "push_out of a compound mover gave %d", (int)s);
        return;
    }
    FZ_CHECK(s == C2D_OK, "push_out rejected with %d", (int)s);
    FZ_CHECK(c2d_static_set_push_out(st->set, m, NULL) == C2D_ERR_NULL, "push_out to NULL accepted");
    FZ_CHECK(fz_finite_vec(p), "push_out (%g, %g)", p.x, p.y);
    /* Push-outs happen where the members stand (time 0) and ignore one-way members (left out of the
     * clearance: clear of the others, the mover is not pushed). */
    double tol = FZ_REL_TOL * 4 * (1 + fz_set_scale(st, m, p, 0));
    int w;
    double d0 = fz_set_clearance(st, m, p, 0, 0, NULL, &w);
    if (d0 > tol)
        FZ_CHECK(p.x == 0 && p.y == 0, "push_out (%.17g, %.17g) for a mover %.17g clear of the set", p.x, p.y, d0);
    double d1 = fz_set_clearance(st, m, p, 1, 0, NULL, &w);
    FZ_CHECK(!(d1 < -tol), "pushed out by (%.17g, %.17g), the mover is still %.17g inside shape %d (tol %g)", p.x, p.y,
             d1, w, tol);
}

/* Move options from the input; *ok says whether the library must accept them. resp receives the
 * effective response to each shape of the set (NONE: ignored). */
static const c2d_move_options *fz_move_options(fz_state *st, c2d_move_options *o, c2d_response *arr, int n,
                                               c2d_response dflt, c2d_response *resp, int *ok)
{
    uint8_t mode = fz_byte(st);
    *ok = 1;
    for (int i = 0; i < n; i++)
        resp[i] = dflt;
    if (!(mode & 1))
        return NULL;
    *o = c2d_move_options_default();
    o->response = (c2d_response)((mode >> 1) % 6);
    if (mode & 0x10) {
        for (int i = 0; i < n; i++)
            arr[i] = (c2d_response)(fz_byte(st) % 6);
        o->responses = arr;
    }
    if (mode & 0x20)
        o->restitution = fz_number(st);
    if (mode & 0x40)
        o->friction = fz_number(st);
    if ((int)o->response > 4 || !isfinite(o->restitution) || o->restitution < 0 || o->restitution > 1 ||
        !isfinite(o->friction) || o->friction < 0 || o->friction > C2D_MAX_COORDINATE)
        *ok = 0;
    for (int i = 0; i < n; i++) {
        if (o->responses && (int)arr[i] > 4)
            *ok = 0;
        resp[i] = o->responses ? arr[i] : (o->response != C2D_RESPONSE_NONE ? o->response : dflt);
    }
    return o;
}

/* The contacts written by a move or ball step, and the untouched rest of the array. */
static void fz_check_contacts(const c2d_sweep_contact *c, int cap, int count, int n, const c2d_response *resp)
{
    int written = count < cap ? count : cap;
    double last = 0;
    for (int k = 0; k < written; k++) {
        FZ_CHECK(c[k].index >= 0 && c[k].index < n, "contact %d index %d", k, c[k].index);
        FZ_CHECK(isfinite(c[k].t) && c[k].t >= 0 && c[k].t <= 1 && c[k].t >= last, "contact %d at t %.17g after %.17g", k,
                 c[k].t, last);
        last = c[k].t;
        FZ_CHECK(fz_finite_vec(c[k].point), "contact %d point not finite", k);
        fz_check_unit(c[k].normal, "move contact normal");
        FZ_CHECK(c[k].pushed_out == 0 || c[k].pushed_out == 1, "pushed_out %d", c[k].pushed_out);
        FZ_CHECK((int)c[k].response >= 1 && (int)c[k].response <= 4, "contact response %d", (int)c[k].response);
        if (resp && c[k].index >= 0 && c[k].index < n && !c[k].pushed_out)
            FZ_CHECK(c[k].response == resp[c[k].index], "contact with shape %d applied response %d, not %d",
                     c[k].index, (int)c[k].response, (int)resp[c[k].index]);
    }
    FZ_CHECK(fz_is_poison(c + written, (size_t)(16 - written) * sizeof *c), "contacts written past %d", written);
}

static void fz_check_move_result(const c2d_move_result *r)
{
    FZ_CHECK(fz_finite_vec(r->displacement) && fz_finite_vec(r->velocity) && isfinite(r->travelled) &&
                 r->travelled >= 0,
             "move result not finite");
    FZ_CHECK(r->count >= 0 && (r->truncated == 0 || r->truncated == 1), "move count %d truncated %d", r->count,
             r->truncated);
}

/* ---- members of a static set that move and block from one side -------------------------------- */

/* The status the library gives a number or a vector (first x, then y): not finite, out of range, or ok. */
static c2d_status fz_number_status(double x)
{
    return !isfinite(x) ? C2D_ERR_NOT_FINITE : fabs(x) > C2D_MAX_COORDINATE ? C2D_ERR_RANGE : C2D_OK;
}

static c2d_status fz_vec_status(c2d_vec2 v)
{
    c2d_status s = fz_number_status(v.x);
    return s != C2D_OK ? s : fz_number_status(v.y);
}

/* A member index for the member calls: usually valid, sometimes -1 or n, or far out of range. */
static int fz_member_index(fz_state *st, uint8_t mode)
{
    int i = fz_set_index(st);
    if (mode & 0x80)
        i = (mode & 0x40) ? INT_MAX : INT_MIN;
    return i;
}

/* What a one-way getter must give for direction v: zero for zero (either sign), else v's unit vector
 * (scaled first, so that denormal and huge directions have one too). Checks the library's u against
 * it within a few ulps. */
static void fz_check_one_way_dir(c2d_vec2 v, c2d_vec2 u, const char *what)
{
    double m = fmax(fabs(v.x), fabs(v.y));
    if (!(m > 0)) {
        FZ_CHECK(u.x == 0 && u.y == 0, "%s: one-way (%.17g, %.17g) for a zero direction", what, u.x, u.y);
        return;
    }
    c2d_vec2 a = fz_v(v.x / m, v.y / m);
    double l = hypot(a.x, a.y);
    c2d_vec2 want = fz_v(a.x / l, a.y / l);
    FZ_CHECK(fz_finite_vec(u) && fz_len(fz_sub(u, want)) <= 4 * DBL_EPSILON,
             "%s: one-way (%.17g, %.17g) for direction (%.17g, %.17g), not its unit vector (%.17g, %.17g)", what, u.x,
             u.y, v.x, v.y, want.x, want.y);
}

/* The status c2d_static_set_set_transform(set, i, p, a) must give for a valid member i (*mag: the
 * largest coordinate magnitude of its box there): not finite, out of range, or reaching past the
 * range ("when the shape would reach beyond C2D_MAX_COORDINATE", predicted on a copy), else ok. */
static c2d_status fz_place_status(const fz_state *st, int i, c2d_vec2 p, double a, double *mag)
{
    c2d_status want = fz_vec_status(p);
    if (want == C2D_OK)
        want = fz_number_status(a);
    if (want != C2D_OK)
        return want;
    c2d_shape *t = NULL;
    c2d_aabb bx;
    FZ_CHECK(c2d_shape_clone(st->set_shape[i], &t) == C2D_OK && c2d_shape_set_transform(t, p, a) == C2D_OK &&
                 c2d_shape_get_aabb(t, &bx) == C2D_OK,
             "placing a copy of member %d failed", i);
    c2d_shape_destroy(t);
    *mag = fmax(fmax(fabs(bx.min.x), fabs(bx.min.y)), fmax(fabs(bx.max.x), fabs(bx.max.y)));
    return *mag <= C2D_MAX_COORDINATE ? C2D_OK : C2D_ERR_RANGE;
}

/* Re-places member i (c2d_static_set_set_transform): anywhere at any angle, by a step from where it
 * stands, where its velocity takes it in a step of dt (what a game does after each step), or moved
 * without turning; with indices and numbers out of range too. Accepted exactly when the set and index
 * are valid, the numbers finite and within C2D_MAX_COORDINATE, and the member's box there stays within
 * it (predicted on a copy); then get_transform gives what was set (position to the bit, the angle as a
 * number) and the harness's copy follows. Rejected: the status the header names, and nothing changes
 * (placements, velocities, one-way directions, seam flags). With mode bit 2 the member is put back
 * where it stood, and the whole set must be as before, seams included (only the seams around its two
 * places are recomputed, so this finds seams left stale). */
static void op_set_place(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    int i = fz_member_index(st, mode);
    int member = st->set && i >= 0 && i < st->set_n;
    int was_uniform = member && st->set_os[i] && !st->set_seg[i];
    c2d_vec2 cur = fz_v(0, 0), vel = fz_v(0, 0), p;
    double cur_a = 0, a;
    if (member) {
        c2d_shape_get_position(st->set_shape[i], &cur);
        c2d_shape_get_angle(st->set_shape[i], &cur_a);
        vel = st->set_vel[i];
    }
    switch (mode & 3) {
    case 0:
        p = fz_vec(st);
        a = fz_number(st);
        break;
    case 1: {
        c2d_vec2 dd = fz_vec(st);
        p = fz_v(cur.x + dd.x, cur.y + dd.y);
        a = cur_a + fz_number(st);
        break;
    }
    case 2: {
        double dt = fz_number(st);
        p = fz_v(cur.x + vel.x * dt, cur.y + vel.y * dt);
        a = cur_a;
        break;
    }
    default:
        p = fz_vec(st);
        a = cur_a;
        break;
    }
    if (fz_trace)
        fprintf(stderr, " <%d> -> (%.17g, %.17g) angle %.17g", i, p.x, p.y, a);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_set_transform(st->set, i, p, a);
    fz_check_status(s);
    double mag = 0;
    c2d_status want = !st->set ? C2D_ERR_NULL : !member ? C2D_ERR_RANGE : fz_place_status(st, i, p, a, &mag);
    if (want != C2D_OK) {
        FZ_CHECK(s == want, "set_transform(%d, (%.17g, %.17g), %.17g) gave %d, not %d", i, p.x, p.y, a, (int)s,
                 (int)want);
        fz_set_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected set_transform changed the set");
        return;
    }
    FZ_CHECK(s == C2D_OK, "set_transform(%d, (%.17g, %.17g), %.17g) rejected with %d", i, p.x, p.y, a, (int)s);
    c2d_vec2 got;
    double got_a;
    FZ_CHECK(c2d_static_set_get_transform(st->set, i, &got, &got_a) == C2D_OK && fz_same_bits(got.x, p.x) &&
                 fz_same_bits(got.y, p.y) && got_a == a,
             "member %d placed at (%.17g, %.17g) angle %.17g stands at (%.17g, %.17g) angle %.17g", i, p.x, p.y, a,
             got.x, got.y, got_a);
    FZ_CHECK(c2d_shape_set_transform(st->set_shape[i], p, a) == C2D_OK, "the copy of member %d cannot follow", i);
    fz_set_chain_faces(st, i);
    (void)mag;
    fz_set_snapshot(st, &after);
    /* A one-sided chain given one direction for all its segments gets back its own directions when
     * it is re-placed (known, see fz_set_chain_faces): nothing to compare after putting it back. */
    if (!(mode & 4) || (was_uniform && !fz_strict_chain))
        return;
    /* A set may be made of shapes that reach past the range (only their positions must lie in it):
     * such a member cannot be put back. */
    want = fz_place_status(st, i, before.pos[i], before.angle[i], &mag);
    s = c2d_static_set_set_transform(st->set, i, before.pos[i], before.angle[i]);
    FZ_CHECK(s == want, "putting member %d back gave %d, not %d", i, (int)s, (int)want);
    if (s != C2D_OK)
        return;
    FZ_CHECK(c2d_shape_set_transform(st->set_shape[i], before.pos[i], before.angle[i]) == C2D_OK,
             "the copy of member %d cannot go back", i);
    fz_set_chain_faces(st, i);
    fz_set_snapshot(st, &after);
    for (int k = 0; k < st->set_n; k++)
        for (int e = 0; e < FZ_SET_EDGES; e++)
            FZ_CHECK(before.seam[k][e] == after.seam[k][e],
                     "member %d moved away and back: edge %d of shape %d is %sa seam now", i, e, k,
                     after.seam[k][e] == 2 ? "" : "no longer ");
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "member %d moved away and back: the set is not as it was", i);
}

/* Sets a member's velocity or one-way direction (anything, zero, -0, or along y, with NaN, huge and
 * denormal numbers among them), with indices out of range too. Rejected: the header's status, nothing
 * changes. Accepted: the getter gives the velocity as set, or the direction's unit vector (zero for
 * zero), and the set stays consistent (the snapshot's checks). With mode bit 0 the old value is set
 * again, and the set must be as before, seams included (a one-way direction given back as it was
 * reported may normalise an ulp away: then only its value is compared). */
static void op_set_member_vec(fz_state *st, int one_way)
{
    const char *what = one_way ? "set_one_way" : "set_velocity";
    uint8_t mode = fz_byte(st);
    int i = fz_member_index(st, mode);
    int member = st->set && i >= 0 && i < st->set_n;
    c2d_vec2 v;
    switch ((mode >> 1) & 3) {
    case 0:
        v = fz_vec(st);
        break;
    case 1:
        v = fz_v(0, 0);
        break;
    case 2:
        v = fz_v(-0.0, -0.0);
        break;
    default:
        v = fz_v(0, fz_number(st));
        break;
    }
    if (fz_trace)
        fprintf(stderr, " <%d> (%.17g, %.17g)", i, v.x, v.y);
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    int was_seg = member && st->set_seg[i];
    c2d_status s = one_way ? c2d_static_set_set_one_way(st->set, i, v) : c2d_static_set_set_velocity(st->set, i, v);
    fz_check_status(s);
    c2d_status want = !st->set ? C2D_ERR_NULL : !member ? C2D_ERR_RANGE : fz_vec_status(v);
    if (want != C2D_OK || s == C2D_ERR_NO_MEMORY) {
        FZ_CHECK(s == want || s == C2D_ERR_NO_MEMORY, "%s(%d, (%.17g, %.17g)) gave %d, not %d", what, i, v.x, v.y,
                 (int)s, (int)want);
        fz_set_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected %s changed the set", what);
        c2d_vec2 out;
        memset(&out, FZ_POISON, sizeof out);
        c2d_status g = one_way ? c2d_static_set_get_one_way(st->set, i, &out) : c2d_static_set_get_velocity(st->set, i, &out);
        FZ_CHECK(member ? g == C2D_OK : (g == (st->set ? C2D_ERR_RANGE : C2D_ERR_NULL) && fz_is_poison(&out, sizeof out)),
                 "get after a rejected %s gave %d", what, (int)g);
        return;
    }
    FZ_CHECK(s == C2D_OK, "%s(%d, (%.17g, %.17g)) rejected with %d", what, i, v.x, v.y, (int)s);
    c2d_vec2 got;
    if (one_way) {
        FZ_CHECK(c2d_static_set_get_one_way(st->set, i, &got) == C2D_OK, "get_one_way failed");
        fz_check_one_way_dir(v, got, "set_one_way");
        st->set_ow[i] = got;
        st->set_seg[i] = 0; /* a one-sided chain's segments all block along it now */
    } else {
        FZ_CHECK(c2d_static_set_get_velocity(st->set, i, &got) == C2D_OK && fz_vec_eq(got, v),
                 "velocity (%.17g, %.17g) set, (%.17g, %.17g) got", v.x, v.y, got.x, got.y);
        st->set_vel[i] = v;
    }
    fz_set_snapshot(st, &after);
    /* A one-sided chain whose segments faced their own ways cannot be given those back through the
     * API (one direction applies to all): nothing to put back then. */
    if (!(mode & 1) || (one_way && was_seg))
        return;
    c2d_vec2 old = one_way ? before.ow[i] : before.vel[i];
    s = one_way ? c2d_static_set_set_one_way(st->set, i, old) : c2d_static_set_set_velocity(st->set, i, old);
    if (s == C2D_ERR_NO_MEMORY)
        return; /* cannot happen (the array exists once a value was stored), but allowed by the header */
    FZ_CHECK(s == C2D_OK, "%s back to (%.17g, %.17g) gave %d", what, old.x, old.y, (int)s);
    if (one_way) {
        FZ_CHECK(c2d_static_set_get_one_way(st->set, i, &got) == C2D_OK, "get_one_way failed");
        fz_check_one_way_dir(old, got, "set_one_way back");
        st->set_ow[i] = got;
        if (!fz_same_bits(got.x, old.x) || !fz_same_bits(got.y, old.y))
            return;
    } else {
        st->set_vel[i] = old;
    }
    fz_set_snapshot(st, &after);
    for (int k = 0; k < st->set_n; k++)
        for (int e = 0; e < FZ_SET_EDGES; e++)
            FZ_CHECK(before.seam[k][e] == after.seam[k][e], "%s of member %d and back: edge %d of shape %d is %sa seam now",
                     what, i, e, k, after.seam[k][e] == 2 ? "" : "no longer ");
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "%s of member %d and back: the set is not as it was", what, i);
}

static void op_set_velocity(fz_state *st)
{
    op_set_member_vec(st, 0);
}

static void op_set_one_way(fz_state *st)
{
    op_set_member_vec(st, 1);
}

/* ---- contact records ------------------------------------------------------------------------ */

/* Room for every contact a move or ball step can count: 256, then the one that truncates it. */
#define FZ_REC_MAX 300

static c2d_sweep_contact fz_all[FZ_REC_MAX];         /* every contact of the plain call, given room */
static c2d_world_contact fz_wall[FZ_REC_MAX];        /* the same for a world call */
static c2d_contact_record fz_rec[FZ_REC_MAX], fz_rec_short[FZ_REC_MAX];

/* Two contacts are the same, field by field to the bit (not byte by byte: the padding after index
 * is nobody's). */
static int fz_contact_same(const c2d_sweep_contact *a, const c2d_sweep_contact *b)
{
    return a->index == b->index && fz_same_bits(a->t, b->t) && fz_same_bits(a->point.x, b->point.x) &&
           fz_same_bits(a->point.y, b->point.y) && fz_same_bits(a->normal.x, b->normal.x) &&
           fz_same_bits(a->normal.y, b->normal.y) && a->response == b->response && a->pushed_out == b->pushed_out;
}

static int fz_record_same(const c2d_contact_record *a, const c2d_contact_record *b)
{
    return fz_contact_same(&a->contact, &b->contact) && fz_same_bits(a->position.x, b->position.x) &&
           fz_same_bits(a->position.y, b->position.y) && fz_same_bits(a->velocity.x, b->velocity.x) &&
           fz_same_bits(a->velocity.y, b->velocity.y) && a->id == b->id && a->user == b->user;
}

static int fz_result_same(const c2d_move_result *a, const c2d_move_result *b)
{
    return memcmp(a, b, sizeof *a) == 0; /* five doubles' worth of numbers and two ints: no padding */
}

/* The capacity of the run short of room: below the count (0 when there is none), from numbers at
 * hand rather than input bytes, so that the committed corpus keeps its meaning. */
static int fz_short_capacity(int count, int salt)
{
    return count > 0 ? (int)(((unsigned)salt * 7u + (unsigned)count) % (unsigned)count) : 0;
}

/* Where a record says the mover was at a contact that was no push-out: for a ball, the contact point
 * plus the radius along the normal, within FZ_REL_TOL of the scene's size (scale); and the mover
 * placed there (a circle of the ball's radius, or a copy of the moved shape) touches the shape it met
 * as that shape stood then (moved by mv * tm), within the harness's usual 4 FZ_REL_TOL of the scene. */
static void fz_check_record_position(const c2d_contact_record *r, int i, const c2d_shape *mover, double radius,
                                     const c2d_shape *met, c2d_vec2 mv, double tm, double scale, int by_parts)
{
    if (r->contact.pushed_out)
        return;
    FZ_CHECK(fz_finite_vec(r->position) && fz_finite_vec(r->velocity), "record %d: position or velocity not finite", i);
    if (!mover) {
        c2d_vec2 q = fz_v(r->contact.point.x + radius * r->contact.normal.x,
                          r->contact.point.y + radius * r->contact.normal.y);
        double off = fz_len(fz_sub(q, r->position));
        FZ_CHECK(off <= FZ_REL_TOL * (1 + scale),
                 "record %d: the ball was at (%.17g, %.17g), but point + radius * normal is (%.17g, %.17g), %.3g away "
                 "(scene %g)",
                 i, r->position.x, r->position.y, q.x, q.y, off, scale);
    }
    if (!fz_ok_vec(r->position))
        return;
    c2d_shape *at = NULL;
    if (mover) {
        if (c2d_shape_clone(mover, &at) != C2D_OK || c2d_shape_set_position(at, r->position) != C2D_OK) {
            c2d_shape_destroy(at);
            return;
        }
    } else if (c2d_circle_new(r->position.x, r->position.y, radius, &at) != C2D_OK) {
        return;
    }
    c2d_shape *then = (mv.x != 0 || mv.y != 0) && tm != 0 ? fz_moved(met, mv, tm) : NULL;
    c2d_distance_result dr;
    double tol = FZ_REL_TOL * 4 * (1 + scale);
    /* (A one-way chain or concave polygon: the part met, see fz_part_distance.) */
    if (by_parts && fz_is_compound(met))
        dr.distance = fz_part_distance(at, met, fz_v(mv.x * tm, mv.y * tm));
    if (((mv.x == 0 && mv.y == 0) || tm == 0 || then) &&
        ((by_parts && fz_is_compound(met)) || c2d_distance(at, then ? then : met, &dr) == C2D_OK) && !isnan(dr.distance))
        FZ_CHECK(fabs(dr.distance) <= tol,
                 "record %d (t %.17g, response %d): the mover at (%.17g, %.17g) is %.17g from the shape it met (tol %g)",
                 i, r->contact.t, (int)r->contact.response, r->position.x, r->position.y, dr.distance, tol);
    c2d_shape_destroy(then);
    c2d_shape_destroy(at);
}

/* The _records form of a set move (ball0 NULL) or ball step against the plain call just made, which
 * gave res (and the ball ball1) and contacts c[0 .. min(count, usecap)): the plain call again with room
 * for every contact (into fz_all), the records call with that room (into fz_rec), and the records call
 * short of room. Same status, results and ball to the bit; record i's contact is plain contact i, id
 * and user 0; a short run writes exactly the first `capacity` records of the full one and counts them
 * all. Returns how many contacts fz_all holds: all of them, or -1 when there were more than room. */
static int fz_check_set_records(fz_state *st, const c2d_shape *m, c2d_vec2 d, const c2d_ball *ball0, double dt,
                                const c2d_move_options *op, const c2d_move_result *res, const c2d_ball *ball1,
                                const c2d_sweep_contact *c, int usecap, double scale)
{
    const char *what = ball0 ? "ball step" : "move";
    c2d_move_result r1, r2, r3;
    c2d_ball b1, b2, b3;
    memset(&b1, 0, sizeof b1);
    if (ball0)
        b1 = b2 = b3 = *ball0;
    memset(fz_all, FZ_POISON, sizeof fz_all);
    c2d_status s1 = ball0 ? c2d_static_set_step_ball(st->set, &b1, dt, op, &r1, fz_all, FZ_REC_MAX)
                          : c2d_static_set_move(st->set, m, d, op, &r1, fz_all, FZ_REC_MAX);
    FZ_CHECK(s1 == C2D_OK && fz_result_same(&r1, res) && (!ball0 || memcmp(&b1, ball1, sizeof b1) == 0),
             "the plain %s with room for every contact gave %d and another result", what, (int)s1);
    int written = res->count < usecap ? res->count : usecap, all = res->count < FZ_REC_MAX ? res->count : FZ_REC_MAX;
    for (int i = 0; i < written; i++)
        FZ_CHECK(fz_contact_same(&fz_all[i], &c[i]), "%s contact %d differs with room for every contact", what, i);
    memset(fz_rec, FZ_POISON, sizeof fz_rec);
    memset(&r2, FZ_POISON, sizeof r2);
    c2d_status s2 = ball0 ? c2d_static_set_step_ball_records(st->set, &b2, dt, op, &r2, fz_rec, FZ_REC_MAX)
                          : c2d_static_set_move_records(st->set, m, d, op, &r2, fz_rec, FZ_REC_MAX);
    FZ_CHECK(s2 == C2D_OK && fz_result_same(&r2, res) && (!ball0 || memcmp(&b2, ball1, sizeof b2) == 0),
             "the %s with records gave %d and another result than the plain call", what, (int)s2);
    for (int i = 0; i < all; i++) {
        FZ_CHECK(fz_contact_same(&fz_rec[i].contact, &fz_all[i]), "%s record %d is not plain contact %d", what, i, i);
        FZ_CHECK(fz_rec[i].id == 0 && fz_rec[i].user == 0, "%s record %d of a static set has id %llu user %llu", what,
                 i, (unsigned long long)fz_rec[i].id, (unsigned long long)fz_rec[i].user);
        int k = fz_rec[i].contact.index;
        if (k >= 0 && k < st->set_n)
            fz_check_record_position(&fz_rec[i], i, m, ball0 ? ball0->radius : 0, st->set_shape[k], st->set_vel[k],
                                     fz_rec[i].contact.t * dt, scale, fz_member_one_way(st, k));
    }
    FZ_CHECK(fz_is_poison(fz_rec + all, (size_t)(FZ_REC_MAX - all) * sizeof fz_rec[0]),
             "%s records written past the count %d", what, all);
    int cap = fz_short_capacity(res->count, usecap + 2);
    c2d_contact_record *out = cap == 0 && (res->count & 1) ? NULL : fz_rec_short;
    memset(fz_rec_short, FZ_POISON, sizeof fz_rec_short);
    memset(&r3, FZ_POISON, sizeof r3);
    c2d_status s3 = ball0 ? c2d_static_set_step_ball_records(st->set, &b3, dt, op, &r3, out, cap)
                          : c2d_static_set_move_records(st->set, m, d, op, &r3, out, cap);
    FZ_CHECK(s3 == C2D_OK && fz_result_same(&r3, res) && (!ball0 || memcmp(&b3, ball1, sizeof b3) == 0),
             "the %s with room for %d records gave %d and another result (count %d)", what, cap, (int)s3, r3.count);
    for (int i = 0; i < cap; i++)
        FZ_CHECK(fz_record_same(&fz_rec_short[i], &fz_rec[i]), "%s record %d differs with room for %d", what, i, cap);
    FZ_CHECK(fz_is_poison(fz_rec_short + cap, (size_t)(FZ_REC_MAX - cap) * sizeof fz_rec_short[0]),
             "%s with room for %d records wrote more", what, cap);
    return res->count <= FZ_REC_MAX ? res->count : -1;
}

/* When the mover's motion ended, as a fraction of the call's time, given every contact (all of
 * fz_all, or -1: not known): at the contact that stopped it (a touch on a member that stands still)
 * or that cut it short (truncated), else at the end. Members with a velocity go on moving to the end
 * of the call whatever the mover does, so a mover stopped early may be overtaken by one (crushed
 * between a moving member and a wall: nothing can be promised there); it is clear of them when it
 * stopped. NAN when not known: moving members are then left out of the end check. */
static double fz_end_time(const fz_state *st, const c2d_move_result *res, int all)
{
    if (all < 0)
        return NAN;
    if (all == 0)
        return 1;
    const c2d_sweep_contact *l = &fz_all[all - 1];
    if (res->truncated ||
        (l->response == C2D_RESPONSE_TOUCH && !l->pushed_out && l->index >= 0 && l->index < st->set_n &&
         !fz_member_moves(st, l->index)))
        return l->t;
    return 1;
}

/* Whether the mover met a member that moves (every contact known), or may have (not known). */
static int fz_met_moving(const fz_state *st, int all)
{
    if (all < 0)
        return fz_set_max_speed(st) > 0;
    for (int k = 0; k < all; k++)
        if (fz_all[k].index >= 0 && fz_all[k].index < st->set_n && fz_member_moves(st, fz_all[k].index))
            return 1;
    return 0;
}

static void op_set_move(fz_state *st)
{
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_vec2 d = fz_vec(st);
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    const c2d_move_options *op =
        fz_move_options(st, &o, arr, st->set_n, C2D_RESPONSE_SLIDE, resp, &opt_ok);
    int cap = (int)(fz_byte(st) % 19) - 2;
    int null_contacts = cap > 0 && (fz_byte(st) & 0x80);
    c2d_sweep_contact c[16];
    c2d_move_result res;
    memset(c, FZ_POISON, sizeof c);
    memset(&res, FZ_POISON, sizeof res);
    int usecap = cap > 16 ? 16 : cap;
    int compound = m && fz_is_compound(m);
    fz_set_snap before, after;
    if (compound)
        fz_set_snapshot(st, &before);
    c2d_status s = c2d_static_set_move(st->set, m, d, op, &res, null_contacts ? NULL : c, usecap);
    fz_check_status(s);
    if (!st->set || !m || null_contacts || usecap < 0 || !fz_ok_vec(d) || !opt_ok || compound) {
        FZ_CHECK(s != C2D_OK, "bad move accepted");
        /* A chain or concave polygon is no mover: C2D_ERR_NOT_CONVEX when nothing else is wrong. */
        if (st->set && compound && !null_contacts && usecap >= 0 && fz_ok_vec(d) && opt_ok)
            FZ_CHECK(s == C2D_ERR_NOT_CONVEX, "move of a compound mover gave %d", (int)s);
        if (compound) {
            fz_set_snapshot(st, &after);
            FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a refused move changed the set");
        }
        FZ_CHECK(fz_is_poison(&res, sizeof res) && fz_is_poison(c, sizeof c), "move wrote on error");
        /* The records form refuses the same call with the same status, writing nothing. */
        memset(fz_rec, FZ_POISON, sizeof fz_rec);
        c2d_status s2 = c2d_static_set_move_records(st->set, m, d, op, &res, null_contacts ? NULL : fz_rec, usecap);
        FZ_CHECK(s2 == s && fz_is_poison(&res, sizeof res) && fz_is_poison(fz_rec, sizeof fz_rec),
                 "move_records gave %d where move gave %d, or wrote on error", (int)s2, (int)s);
        return;
    }
    FZ_CHECK(s == C2D_OK, "move rejected with %d", (int)s);
    if (fz_trace) {
        fprintf(stderr, " -> moved (%.17g, %.17g) count %d options %s", res.displacement.x, res.displacement.y,
                res.count, op ? "" : "NULL");
        for (int i = 0; op && i < st->set_n; i++)
            fprintf(stderr, " r%d=%d", i, (int)resp[i]);
    }
    FZ_CHECK(c2d_static_set_move(st->set, m, d, op, NULL, NULL, 0) == C2D_ERR_NULL, "move with NULL result accepted");
    fz_check_move_result(&res);
    fz_check_contacts(c, usecap, res.count, st->set_n, resp);
    /* A move lasts one unit of time: moving members move by their velocity over it. */
    double scale = fz_set_scale(st, m, d, 1) + fz_vec_mag(res.displacement);
    double tol = FZ_REL_TOL * 4 * (1 + scale);
    int all = fz_check_set_records(st, m, d, NULL, 1, op, &res, NULL, c, usecap, scale);
    fz_check_one_way_contacts(st, fz_all, all < 0 ? FZ_REC_MAX : all, 1, scale);
    int w;
    double t_end = fz_end_time(st, &res, all);
    double d1 = fz_set_clearance(st, m, res.displacement, 1, t_end, resp, &w);
    /* Unless the set's seam tolerance is as large as the mover (as for set_sweep): a gap that the
     * tolerance counts as a seam hides the faces and corners beside it and stays open. */
    c2d_aabb mb;
    c2d_shape_get_aabb(m, &mb);
    if (!(st->set_seam_tol >= fmin(mb.max.x - mb.min.x, mb.max.y - mb.min.y)))
        FZ_CHECK(!(d1 < -tol), "moved by (%.17g, %.17g), the mover ends %.17g inside shape %d (response %d, at t %g)",
                 res.displacement.x, res.displacement.y, d1, w, w >= 0 ? (int)resp[w] : -1, t_end);
    if (res.count == 0)
        FZ_CHECK(fz_len(fz_sub(res.displacement, d)) <= tol && fz_len(fz_sub(res.velocity, d)) <= tol,
                 "no contact but moved by (%.17g, %.17g) of (%.17g, %.17g)", res.displacement.x, res.displacement.y, d.x,
                 d.y);
    /* After a touch the mover rests on the shape: at rest, or carried along with a moving member (its
     * velocity). A truncated motion stopped before its last contact's response. */
    if (all > 0 && !res.truncated && fz_all[all - 1].response == C2D_RESPONSE_TOUCH && !fz_all[all - 1].pushed_out) {
        c2d_vec2 w_last = st->set_vel[fz_all[all - 1].index];
        FZ_CHECK(fz_vec_eq(res.velocity, w_last), "velocity (%g, %g) after a touch on a member moving at (%g, %g)",
                 res.velocity.x, res.velocity.y, w_last.x, w_last.y);
    }
    /* The path is never longer than asked: unless the mover met a moving member, which carries it
     * along (touch, slide) or hands it its speed (bounce), without bound over many contacts. */
    if (!fz_met_moving(st, all))
        FZ_CHECK(res.travelled <= fz_len(d) * (1 + 1e-9) + tol, "travelled %.17g of %.17g", res.travelled, fz_len(d));
}

static c2d_ball fz_ball(fz_state *st)
{
    c2d_ball b;
    b.position = fz_vec(st);
    b.velocity = fz_vec(st);
    b.radius = fz_number(st);
    return b;
}

static int fz_ball_ok(const c2d_ball *b, double dt)
{
    return fz_ok_vec(b->position) && fz_ok_vec(b->velocity) && fz_ok_number(b->radius) && b->radius > 0 &&
           fz_ok_number(dt) && dt >= 0 && fz_vec_mag(b->velocity) * dt <= C2D_MAX_COORDINATE;
}

/* Whether a ball step keeps the speed: restitution 1, no friction, every response a bounce (or
 * cross, or ignore), not cut short, and no two contacts at once from facing sides (a jammed ball). */
static int fz_keeps_speed(const c2d_move_options *o, const c2d_response *resp, int n, const c2d_move_result *r,
                          const c2d_sweep_contact *c, int written)
{
    if (r->truncated || (o && (o->restitution != 1 || o->friction != 0)))
        return 0;
    for (int i = 0; i < n; i++)
        if (resp[i] == C2D_RESPONSE_TOUCH || resp[i] == C2D_RESPONSE_SLIDE)
            return 0;
    if (r->count > written)
        return 0;
    for (int i = 0; i < written; i++)
        for (int j = i + 1; j < written; j++)
            if (fabs(c[i].t - c[j].t) <= 1e-9 && c[i].normal.x * c[j].normal.x + c[i].normal.y * c[j].normal.y < 0)
                return 0;
    return 1;
}

static void op_set_ball(fz_state *st)
{
    c2d_ball b = fz_ball(st);
    double dt = fz_number(st);
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    const c2d_move_options *op = fz_move_options(st, &o, arr, st->set_n, C2D_RESPONSE_BOUNCE, resp, &opt_ok);
    int cap = (int)(fz_byte(st) % 19) - 2;
    int no_result = fz_byte(st) & 1;
    int usecap = cap > 16 ? 16 : cap;
    c2d_sweep_contact c[16];
    c2d_move_result res;
    c2d_ball b0 = b;
    memset(c, FZ_POISON, sizeof c);
    memset(&res, FZ_POISON, sizeof res);
    c2d_status s = c2d_static_set_step_ball(st->set, &b, dt, op, no_result ? NULL : &res, c, usecap);
    fz_check_status(s);
    if (!st->set || usecap < 0 || !fz_ball_ok(&b0, dt) || !opt_ok) {
        FZ_CHECK(s != C2D_OK, "bad ball step accepted");
        FZ_CHECK(memcmp(&b, &b0, sizeof b) == 0, "rejected ball step changed the ball");
        FZ_CHECK(fz_is_poison(&res, sizeof res) && fz_is_poison(c, sizeof c), "ball step wrote on error");
        memset(fz_rec, FZ_POISON, sizeof fz_rec);
        c2d_status s2 = c2d_static_set_step_ball_records(st->set, &b, dt, op, no_result ? NULL : &res, fz_rec, usecap);
        FZ_CHECK(s2 == s && memcmp(&b, &b0, sizeof b) == 0 && fz_is_poison(&res, sizeof res) &&
                     fz_is_poison(fz_rec, sizeof fz_rec),
                 "step_ball_records gave %d where step_ball gave %d, or changed the ball or wrote on error", (int)s2,
                 (int)s);
        return;
    }
    FZ_CHECK(s == C2D_OK, "ball step rejected with %d", (int)s);
    if (fz_trace) {
        fprintf(stderr, " -> ball (%.17g, %.17g) v (%.17g, %.17g) options %s", b.position.x, b.position.y,
                b.velocity.x, b.velocity.y, op ? "" : "NULL");
        for (int i = 0; op && i < st->set_n; i++)
            fprintf(stderr, " r%d=%d", i, (int)resp[i]);
    }
    FZ_CHECK(fz_finite_vec(b.position) && fz_finite_vec(b.velocity) && b.radius == b0.radius, "ball after the step");
    if (no_result) {
        FZ_CHECK(fz_is_poison(&res, sizeof res), "result written though NULL");
        c2d_ball again = b0;
        c2d_status s2 = c2d_static_set_step_ball(st->set, &again, dt, op, &res, c, usecap);
        FZ_CHECK(s2 == C2D_OK && memcmp(&again, &b, sizeof b) == 0, "ball step not repeatable");
    }
    fz_check_move_result(&res);
    fz_check_contacts(c, usecap, res.count, st->set_n, resp);
    /* A step lasts dt: moving members move by their velocity times dt over it. */
    c2d_shape *ball = NULL;
    if (c2d_circle_new(b.position.x, b.position.y, b.radius, &ball) != C2D_OK)
        ball = NULL;
    double scale = fz_set_scale(st, ball, ball ? fz_v(0, 0) : b.position, dt) + fz_vec_mag(b0.position) +
                   fz_vec_mag(b0.velocity) * dt;
    int all = fz_check_set_records(st, NULL, fz_v(0, 0), &b0, dt, op, &res, &b, c, usecap, scale);
    fz_check_one_way_contacts(st, fz_all, all < 0 ? FZ_REC_MAX : all, dt, scale);
    if (ball) {
        double tol = FZ_REL_TOL * 4 * (1 + scale);
        int w;
        double t_end = fz_end_time(st, &res, all);
        double d1 = fz_set_clearance(st, ball, fz_v(0, 0), 0, t_end * dt, resp, &w);
        c2d_shape_destroy(ball);
        if (!(st->set_seam_tol >= 2 * b0.radius)) /* as for set_move */
            FZ_CHECK(!(d1 < -tol), "the ball ends %.17g inside shape %d (tol %g, at t %g)", d1, w, tol, t_end);
    }
    int written = res.count < usecap ? res.count : usecap;
    /* A ball far below the set's resolution (the touching tolerance is 1e-12 of the scene's size) sees
     * every nearby surface as touching, from either side: its speed is not promised there. */
    int resolved = 0;
    c2d_shape *probe = NULL;
    if (c2d_circle_new(b0.position.x, b0.position.y, b0.radius, &probe) == C2D_OK) {
        resolved = b0.radius > 1e-6 * fz_set_scale(st, probe, fz_v(0, 0), 0);
        c2d_shape_destroy(probe);
    }
    /* A bounce off a moving member reflects the motion relative to it: the speed changes (a paddle
     * speeds the ball up), so the speed is promised only when no contact was with one. */
    if (resolved && fz_keeps_speed(op, resp, st->set_n, &res, c, written) && !fz_met_moving(st, all)) {
        double v0 = fz_len(b0.velocity), v1 = fz_len(b.velocity);
        FZ_CHECK(fabs(v1 - v0) <= 1e-9 * v0, "speed %.17g became %.17g with restitution 1 (%d contacts)", v0, v1,
                 res.count);
    }
}

/* ---- worlds --------------------------------------------------------------------------------- */

/* The harness keeps its own model of the world: every entry added (live or removed), with its own
 * shape (a copy of a slot, so the slots may change freely), user value and bits. */

static int fz_entry_of(const fz_state *st, c2d_world_id id)
{
    for (int k = 0; k < st->n_ent; k++)
        if (st->ent[k].live && st->ent[k].id == id)
            return k;
    return -1;
}

static int fz_bits_pass(const c2d_world_filter *f, unsigned cat, unsigned mask)
{
    return !f || ((f->category & mask) != 0 && (cat & f->mask) != 0);
}

/* World order: user value, then id. */
static int fz_before(uintptr_t ua, c2d_world_id ia, uintptr_t ub, c2d_world_id ib)
{
    return ua != ub ? ua < ub : ia < ib;
}

/* Everything observable about the world, to prove that a rejected call changed nothing. */
typedef struct fz_world_snap {
    int count;
    struct {
        c2d_shape *shape;
        uintptr_t user;
        unsigned cat, mask;
        int status;
        c2d_vec2 ow;
    } e[FZ_MAX_ENTRIES];
} fz_world_snap;

static void fz_world_snapshot(const fz_state *st, fz_world_snap *sn)
{
    memset(sn, 0, sizeof *sn);
    if (!st->world)
        return;
    FZ_CHECK(c2d_world_count(st->world, &sn->count) == C2D_OK, "world_count failed");
    int live = 0;
    for (int k = 0; k < st->n_ent; k++) {
        const fz_entry *e = &st->ent[k];
        sn->e[k].status = (int)c2d_world_get(st->world, e->id, &sn->e[k].shape, &sn->e[k].user);
        c2d_world_get_bits(st->world, e->id, &sn->e[k].cat, &sn->e[k].mask);
        c2d_status ow_status = c2d_world_get_one_way(st->world, e->id, &sn->e[k].ow);
        if (e->live) {
            live++;
            FZ_CHECK(sn->e[k].status == C2D_OK && sn->e[k].shape == e->shape && sn->e[k].user == e->user &&
                         sn->e[k].cat == e->cat && sn->e[k].mask == e->mask,
                     "entry %d (id %llu) is not as added: status %d", k, (unsigned long long)e->id, sn->e[k].status);
            FZ_CHECK(ow_status == C2D_OK && fz_vec_eq(sn->e[k].ow, e->ow),
                     "entry %d (id %llu) is one-way along (%.17g, %.17g), not (%.17g, %.17g)", k,
                     (unsigned long long)e->id, sn->e[k].ow.x, sn->e[k].ow.y, e->ow.x, e->ow.y);
        } else {
            FZ_CHECK(sn->e[k].status == C2D_ERR_RANGE, "removed entry %d (id %llu) still answers %d", k,
                     (unsigned long long)e->id, sn->e[k].status);
            FZ_CHECK(ow_status == C2D_ERR_RANGE && sn->e[k].ow.x == 0 && sn->e[k].ow.y == 0,
                     "get_one_way of removed entry %d gave %d or wrote", k, (int)ow_status);
        }
    }
    FZ_CHECK(sn->count == live, "world counts %d entries, %d are live", sn->count, live);
}

static void fz_world_free(fz_state *st)
{
    c2d_world_destroy(st->world);
    st->world = NULL;
    for (int k = 0; k < st->n_ent; k++)
        c2d_shape_destroy(st->ent[k].shape);
    st->n_ent = 0;
    for (int k = 0; k < st->n_grave; k++)
        c2d_shape_destroy(st->grave[k]);
    st->n_grave = 0;
}

/* Removes entry k through the API (from a callback too): its shape is freed only after the current
 * call returns, since a query may still hold it. */
static void fz_entry_remove(fz_state *st, int k)
{
    fz_entry *e = &st->ent[k];
    FZ_CHECK(c2d_world_remove(st->world, e->id) == C2D_OK, "removing live entry %llu failed",
             (unsigned long long)e->id);
    e->live = 0;
    if (st->n_grave < FZ_MAX_ENTRIES)
        st->grave[st->n_grave++] = e->shape;
    else
        c2d_shape_destroy(e->shape);
    e->shape = NULL;
}

static void fz_bury(fz_state *st)
{
    for (int k = 0; k < st->n_grave; k++)
        c2d_shape_destroy(st->grave[k]);
    st->n_grave = 0;
}

static void op_world_new(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    if (mode & 1) {
        fz_world_free(st);
        c2d_world *w = (c2d_world *)(void *)fz_sentinel();
        FZ_CHECK(c2d_world_new(NULL) == C2D_ERR_NULL, "world_new(NULL) accepted");
        c2d_status s = c2d_world_new(&w);
        FZ_CHECK(s == C2D_OK || (s == C2D_ERR_NO_MEMORY && w == (c2d_world *)(void *)fz_sentinel()), "world_new gave %d",
                 (int)s);
        if (s == C2D_OK)
            st->world = w;
        st->pair_mod = 0; /* a new world has no pair filter */
    }
    if (mode & 2) {
        double a = fz_number(st), r = fz_number(st);
        fz_world_snap before, after;
        fz_world_snapshot(st, &before);
        c2d_status s = c2d_world_set_margin(st->world, a, r);
        fz_check_status(s);
        int ok = st->world && fz_ok_number(a) && fz_ok_number(r) && a >= 0 && r >= 0;
        fz_world_snapshot(st, &after);
        FZ_CHECK(ok ? s == C2D_OK : s != C2D_OK, "set_margin(%g, %g) gave %d", a, r, (int)s);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "set_margin changed the entries");
    }
}

/* Drops removed entries from the model when it is full (their ids stay invalid). */
static void fz_compact(fz_state *st)
{
    int n = 0;
    for (int k = 0; k < st->n_ent; k++)
        if (st->ent[k].live)
            st->ent[n++] = st->ent[k];
    st->n_ent = n;
}

static void op_world_add(fz_state *st)
{
    int slot = fz_slot(st);
    const c2d_shape *s = st->slot[slot];
    uint8_t u = fz_byte(st);
    uintptr_t user = (u & 0x80) ? (uintptr_t)0 - (uintptr_t)(u & 3) : (uintptr_t)(u % 12);
    if (st->n_ent == FZ_MAX_ENTRIES)
        fz_compact(st);
    c2d_world_id id;
    memset(&id, FZ_POISON, sizeof id);
    if (!st->world || !s || st->n_ent == FZ_MAX_ENTRIES) {
        c2d_shape *copy = NULL;
        if (s)
            c2d_shape_clone(s, &copy);
        c2d_status r = c2d_world_add(st->world, copy, user, &id);
        FZ_CHECK(!st->world || !copy ? r == C2D_ERR_NULL : 1, "bad world_add gave %d", (int)r);
        if (r == C2D_OK)
            c2d_world_remove(st->world, id);
        else
            FZ_CHECK(fz_is_poison(&id, sizeof id), "world_add wrote the id on error");
        c2d_shape_destroy(copy);
        return;
    }
    c2d_shape *copy = NULL;
    if (c2d_shape_clone(s, &copy) != C2D_OK)
        return;
    FZ_CHECK(c2d_world_add(st->world, copy, user, NULL) == C2D_ERR_NULL, "world_add to a NULL id accepted");
    c2d_status r = c2d_world_add(st->world, copy, user, &id);
    FZ_CHECK(r == C2D_OK || r == C2D_ERR_NO_MEMORY, "world_add gave %d", (int)r);
    if (r != C2D_OK) {
        c2d_shape_destroy(copy);
        return;
    }
    FZ_CHECK(id != 0 && id < ((uint64_t)1 << 53), "world_add gave id %llu", (unsigned long long)id);
    FZ_CHECK(fz_entry_of(st, id) < 0, "world_add gave id %llu of a live entry", (unsigned long long)id);
    fz_entry *e = &st->ent[st->n_ent++];
    e->id = id;
    e->shape = copy;
    e->user = user;
    e->cat = 1;
    e->mask = C2D_WORLD_ALL_BITS;
    e->live = 1;
    e->ow = fz_v(0, 0); /* a new entry blocks from every side, whatever the entry that had its slot did */
    e->os = st->model[slot].kind == C2D_SHAPE_CHAIN && st->model[slot].one_sided;
    fz_world_snap sn;
    fz_world_snapshot(st, &sn);
}

/* An entry index of the model (possibly removed), or -1 for a made-up id. */
static int fz_entry_pick(fz_state *st, c2d_world_id *id)
{
    uint8_t b = fz_byte(st);
    if (st->n_ent == 0 || b >= 0xF0) {
        static const c2d_world_id bogus[] = {0, 1, 2, 0xFFFFFFFFFFFFFFFFull, (uint64_t)1 << 52, 0x100000,
                                             0x200001, 7};
        *id = bogus[b & 7];
        return -1;
    }
    int k = b % st->n_ent;
    *id = st->ent[k].id;
    return k;
}

static void op_world_remove(fz_state *st)
{
    c2d_world_id id;
    int k = fz_entry_pick(st, &id);
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    if (k < 0 && st->world)
        k = fz_entry_of(st, id); /* a made-up id may be that of a live entry */
    int live = k >= 0 && st->ent[k].live;
    if (st->world && live) {
        fz_entry_remove(st, k);
        fz_bury(st);
        fz_world_snapshot(st, &after);
        return;
    }
    c2d_status r = c2d_world_remove(st->world, id);
    fz_check_status(r);
    fz_world_snapshot(st, &after);
    FZ_CHECK(r == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL), "removing id %llu (not live) gave %d",
             (unsigned long long)id, (int)r);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected remove changed the world");
}

/* Moves or turns an entry's shape (or replaces its transform), then tells the world. */
static void op_world_update(fz_state *st)
{
    c2d_world_id id;
    int k = fz_entry_pick(st, &id);
    uint8_t mode = fz_byte(st);
    c2d_vec2 d = fz_vec(st);
    if (k >= 0 && st->ent[k].live) {
        c2d_shape *s = st->ent[k].shape;
        if (mode & 1)
            c2d_shape_move(s, d);
        if (mode & 2)
            c2d_shape_rotate(s, d.x);
        if (mode & 4)
            c2d_shape_set_position(s, d);
    }
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status r = c2d_world_update(st->world, id);
    fz_check_status(r);
    fz_world_snapshot(st, &after);
    if (st->world && k >= 0 && st->ent[k].live) {
        FZ_CHECK(r == C2D_OK || r == C2D_ERR_NO_MEMORY, "update of a live entry gave %d", (int)r);
    } else if (!st->world || fz_entry_of(st, id) < 0) {
        FZ_CHECK(r == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL), "update of id %llu gave %d", (unsigned long long)id,
                 (int)r);
    }
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "update changed what the entries are");
}

/* set_bits, set_user, the getters, and the pair filter. */
static int fz_pair_filter(void *ctx, c2d_world_id a, uintptr_t ua, c2d_world_id b, uintptr_t ub);

static void op_world_set(fz_state *st)
{
    c2d_world_id id;
    int k = fz_entry_pick(st, &id);
    uint8_t mode = fz_byte(st);
    int live = st->world && k >= 0 && st->ent[k].live;
    if (!live && st->world && fz_entry_of(st, id) >= 0)
        return;
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status r;
    switch (mode % 4) {
    case 0: {
        static const unsigned bits[] = {0, 1, 2, 3, 5, 0x80000000u, 0xFFFFFFFFu, 6};
        unsigned cat = bits[(mode >> 2) & 7], mask = bits[(mode >> 5) & 7];
        r = c2d_world_set_bits(st->world, id, cat, mask);
        if (live && r == C2D_OK) {
            st->ent[k].cat = cat;
            st->ent[k].mask = mask;
        }
        break;
    }
    case 1: {
        uintptr_t user = (uintptr_t)(fz_byte(st) % 12);
        r = c2d_world_set_user(st->world, id, user);
        if (live && r == C2D_OK)
            st->ent[k].user = user;
        break;
    }
    case 2: {
        unsigned cat = 0x1234, mask = 0x5678;
        c2d_shape *sh = fz_sentinel();
        uintptr_t user = 99;
        r = c2d_world_get_bits(st->world, id, &cat, (mode & 4) ? NULL : &mask);
        c2d_status r2 = c2d_world_get(st->world, id, (mode & 8) ? NULL : &sh, &user);
        FZ_CHECK(c2d_world_get(st->world, id, NULL, NULL) == (st->world ? C2D_ERR_NULL : C2D_ERR_NULL) &&
                     c2d_world_get_bits(st->world, id, NULL, NULL) == C2D_ERR_NULL,
                 "get with no outputs accepted");
        FZ_CHECK(r == r2, "get_bits gave %d, get %d", (int)r, (int)r2);
        if (r != C2D_OK)
            FZ_CHECK(cat == 0x1234 && mask == 0x5678 && sh == fz_sentinel() && user == 99, "get wrote on error");
        break;
    }
    default: {
        st->pair_mod = (mode >> 2) % 4;
        r = c2d_world_set_pair_filter(st->world, st->pair_mod ? fz_pair_filter : NULL, st);
        if (!st->world)
            st->pair_mod = 0;
        FZ_CHECK(r == (st->world ? C2D_OK : C2D_ERR_NULL), "set_pair_filter gave %d", (int)r);
        return;
    }
    }
    fz_check_status(r);
    fz_world_snapshot(st, &after);
    if (live) {
        FZ_CHECK(r == C2D_OK, "call on a live entry gave %d", (int)r);
        return;
    }
    FZ_CHECK(r == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL), "call on id %llu gave %d", (unsigned long long)id,
             (int)r);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected call changed the world");
}

/* The query filter and its callback. The callback may refuse entries and may remove entries (itself
 * or others, already accepted or not); it records what it saw. */
typedef struct fz_query_ctx {
    fz_state *st;
    const c2d_world_filter *filter;
    uint8_t salt, mode;
    int calls;
    int called[FZ_MAX_ENTRIES], said[FZ_MAX_ENTRIES];
} fz_query_ctx;

static int fz_accept(void *ctx, c2d_world_id id, uintptr_t user)
{
    fz_query_ctx *q = (fz_query_ctx *)ctx;
    fz_state *st = q->st;
    int k = fz_entry_of(st, id);
    FZ_CHECK(k >= 0, "accept called for id %llu, not a live entry", (unsigned long long)id);
    FZ_CHECK(st->ent[k].user == user, "accept called with user %llu for an entry of user %llu",
             (unsigned long long)user, (unsigned long long)st->ent[k].user);
    FZ_CHECK(fz_bits_pass(q->filter, st->ent[k].cat, st->ent[k].mask), "accept called for an entry failing the bits");
    FZ_CHECK(!q->called[k], "accept called twice for entry %d", k);
    q->called[k] = 1;
    q->calls++;
    int yes = ((user + q->salt) & 3) != 0;
    q->said[k] = yes;
    if ((q->mode & 1) && q->calls % 2 == 1) {
        /* Remove some live entry: this one, one already accepted, or one still to come. */
        int live[FZ_MAX_ENTRIES], n = 0;
        for (int j = 0; j < st->n_ent; j++)
            if (st->ent[j].live)
                live[n++] = j;
        if (n > 0)
            fz_entry_remove(st, live[(q->salt + q->calls) % n]);
    }
    return yes;
}

static int fz_pair_filter(void *ctx, c2d_world_id a, uintptr_t ua, c2d_world_id b, uintptr_t ub)
{
    fz_state *st = (fz_state *)ctx;
    int ka = fz_entry_of(st, a), kb = fz_entry_of(st, b);
    FZ_CHECK(ka >= 0 && kb >= 0, "pair filter called for ids that are not live");
    FZ_CHECK(st->ent[ka].user == ua && st->ent[kb].user == ub, "pair filter called with wrong user values");
    FZ_CHECK(fz_before(ua, a, ub, b), "pair filter called with a after b in the world's order");
    return (ua + ub) % (uintptr_t)(st->pair_mod + 1) != 0 || st->pair_mod == 1;
}

/* A filter from the input: NULL, or bits and maybe the callback. */
static const c2d_world_filter *fz_filter(fz_state *st, c2d_world_filter *f, fz_query_ctx *q)
{
    uint8_t mode = fz_byte(st);
    memset(q, 0, sizeof *q);
    q->st = st;
    if (!(mode & 1))
        return NULL;
    static const unsigned bits[] = {1, 2, 3, 0xFFFFFFFFu, 0, 4, 0x80000001u, 5};
    f->category = bits[(mode >> 1) & 7];
    f->mask = bits[(mode >> 4) & 7];
    f->accept = (mode & 0x80) ? fz_accept : NULL;
    f->ctx = q;
    q->filter = f;
    q->salt = fz_byte(st);
    q->mode = fz_byte(st);
    return f;
}

/* Checks a query's hits against the model: exactly the live entries that pass the bits and the
 * callback and whose shapes pass `test` (1 yes, 0 no, -1 within rounding of touching: either). */
static void fz_check_hits(fz_state *st, const c2d_world_filter *f, const fz_query_ctx *q, const c2d_world_hit *h,
                          int count, int (*test)(const c2d_shape *, const void *), const void *arg)
{
    int seen[FZ_MAX_ENTRIES];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < count; i++) {
        int k = fz_entry_of(st, h[i].id);
        FZ_CHECK(k >= 0, "query reported id %llu, which is not live", (unsigned long long)h[i].id);
        FZ_CHECK(!seen[k], "query reported entry %d twice", k);
        seen[k] = 1;
        FZ_CHECK(h[i].user == st->ent[k].user, "query reported user %llu for an entry of user %llu",
                 (unsigned long long)h[i].user, (unsigned long long)st->ent[k].user);
        if (i > 0)
            FZ_CHECK(fz_before(h[i - 1].user, h[i - 1].id, h[i].user, h[i].id), "query hits %d and %d out of order",
                     i - 1, i);
    }
    for (int k = 0; k < st->n_ent; k++) {
        const fz_entry *e = &st->ent[k];
        if (!e->live) {
            FZ_CHECK(!seen[k], "removed entry reported");
            continue;
        }
        int want = fz_bits_pass(f, e->cat, e->mask);
        int geo = want ? test(e->shape, arg) : 0;
        if (want && f && f->accept && geo == 1)
            FZ_CHECK(q->called[k], "the callback was not asked about entry %d (id %llu), which the query finds", k,
                     (unsigned long long)e->id);
        if (want && f && f->accept)
            want = q->called[k] && q->said[k];
        if (geo < 0 && want)
            continue;
        want = want && geo == 1;
        FZ_CHECK(seen[k] == want, "entry %d (id %llu, user %llu, kind %d) %s", k, (unsigned long long)e->id,
                 (unsigned long long)e->user, (int)c2d_shape_get_type(e->shape),
                 want ? "missing from the query" : "reported by the query, but it should not be");
    }
}

static int fz_test_point(const c2d_shape *s, const void *arg)
{
    c2d_vec2 p = *(const c2d_vec2 *)arg;
    int in = 0;
    double d = 0;
    c2d_contains_point(s, p, &in);
    c2d_closest_point(s, p, NULL, &d);
    double tol = FZ_REL_TOL * (1 + fmax(fz_shape_scale(s), fz_vec_mag(p)));
    return fabs(d) <= tol ? -1 : in;
}

static int fz_test_shape(const c2d_shape *s, const void *arg)
{
    const c2d_shape *probe = (const c2d_shape *)arg;
    int o = 0;
    c2d_distance_result d;
    c2d_overlap(probe, s, &o);
    c2d_distance(probe, s, &d);
    double tol = FZ_REL_TOL * (1 + fmax(fz_shape_scale(s), fz_shape_scale(probe)));
    return fabs(d.distance) <= tol ? -1 : o;
}

/* One of the three queries, against the model. */
static void op_world_query(fz_state *st)
{
    uint8_t kind = fz_byte(st) % 3;
    c2d_aabb box;
    c2d_vec2 p = fz_v(0, 0);
    const c2d_shape *probe = NULL;
    if (kind == 0) {
        box.min = fz_vec(st);
        c2d_vec2 size = fz_vec(st);
        box.max = fz_v(box.min.x + size.x, box.min.y + size.y);
    } else if (kind == 1) {
        p = fz_vec(st);
    } else {
        probe = st->slot[fz_slot(st)];
        uint8_t b = fz_byte(st);
        if ((b & 1) && st->n_ent > 0 && st->ent[b % st->n_ent].live)
            probe = st->ent[b % st->n_ent].shape; /* an entry's own shape */
    }
    c2d_world_filter fl;
    fz_query_ctx q;
    const c2d_world_filter *f = fz_filter(st, &fl, &q);
    int cap = (int)(fz_byte(st) % (FZ_MAX_ENTRIES + 4)) - 2;
    int null_out = cap == 0 && (fz_byte(st) & 1);
    c2d_world_hit h[FZ_MAX_ENTRIES + 2];
    int count;
    memset(h, FZ_POISON, sizeof h);
    memset(&count, FZ_POISON, sizeof count);
    fz_world_snap before;
    fz_world_snapshot(st, &before);
    c2d_status r;
    int ok = st->world != NULL && cap >= 0;
    c2d_shape *box_shape = NULL;
    if (kind == 0) {
        r = c2d_world_query_aabb(st->world, box, f, null_out ? NULL : h, cap, &count);
        ok = ok && fz_ok_vec(box.min) && fz_ok_vec(box.max) && box.min.x <= box.max.x && box.min.y <= box.max.y;
        if (ok) {
            double w = box.max.x - box.min.x, hh = box.max.y - box.min.y;
            /* A box wider than C2D_MAX_COORDINATE (corners within it, a size beyond) is no rectangle
             * the API takes: the same four corners make a polygon. */
            c2d_vec2 corners[4] = {box.min, fz_v(box.max.x, box.min.y), box.max, fz_v(box.min.x, box.max.y)};
            if (w > 0 && hh > 0 &&
                c2d_rect_new(0.5 * (box.min.x + box.max.x), 0.5 * (box.min.y + box.max.y), w, hh, 0, &box_shape) != C2D_OK)
                c2d_polygon_new(corners, 4, &box_shape);
            else if ((w > 0) != (hh > 0))
                c2d_segment_new(box.min, box.max, &box_shape);
        }
    } else if (kind == 1) {
        r = c2d_world_query_point(st->world, p, f, null_out ? NULL : h, cap, &count);
        ok = ok && fz_ok_vec(p);
    } else {
        r = c2d_world_query_shape(st->world, probe, f, null_out ? NULL : h, cap, &count);
        ok = ok && probe != NULL;
    }
    fz_check_status(r);
    if (!ok) {
        FZ_CHECK(r != C2D_OK && r != C2D_ERR_CAPACITY, "bad query accepted");
        FZ_CHECK(fz_is_poison(h, sizeof h) && fz_is_poison(&count, sizeof count), "query wrote on error");
        FZ_CHECK(q.calls == 0, "a rejected query ran the callback");
        fz_world_snap after;
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected query changed the world");
        c2d_shape_destroy(box_shape);
        return;
    }
    FZ_CHECK(r == C2D_OK || r == C2D_ERR_CAPACITY, "query gave %d", (int)r);
    FZ_CHECK(count >= 0 && count <= FZ_MAX_ENTRIES, "query count %d", count);
    FZ_CHECK((r == C2D_ERR_CAPACITY) == (count > cap && !null_out) && (!null_out || r == C2D_OK),
             "query status %d with count %d and capacity %d", (int)r, count, cap);
    if (r != C2D_OK || null_out) {
        FZ_CHECK(fz_is_poison(h, sizeof h), "query wrote hits beyond the capacity");
        fz_bury(st);
        c2d_shape_destroy(box_shape);
        return;
    }
    FZ_CHECK(fz_is_poison(h + count, sizeof h - (size_t)count * sizeof h[0]), "query wrote past its count");
    if (kind == 0) {
        /* A box the API takes as no shape (1e15 long and 256 high is "collinear" to c2d_polygon_new)
         * has no model here: only a box of no size is tested as its point. */
        if (box_shape)
            fz_check_hits(st, f, &q, h, count, fz_test_shape, box_shape);
        else if (box.max.x == box.min.x && box.max.y == box.min.y)
            fz_check_hits(st, f, &q, h, count, fz_test_point, &box.min);
    } else if (kind == 1) {
        fz_check_hits(st, f, &q, h, count, fz_test_point, &p);
    } else {
        fz_check_hits(st, f, &q, h, count, fz_test_shape, probe);
    }
    c2d_shape_destroy(box_shape);
    fz_bury(st);
}

/* Ray queries against c2d_raycast on every live entry. */
static void op_world_ray(fz_state *st)
{
    c2d_vec2 o = fz_vec(st), d = fz_vec(st);
    double max_t = fz_number(st);
    uint8_t all = fz_byte(st) & 1;
    c2d_world_filter fl;
    fz_query_ctx q;
    const c2d_world_filter *f = fz_filter(st, &fl, &q);
    int cap = (int)(fz_byte(st) % (FZ_MAX_ENTRIES + 4)) - 2;
    c2d_world_ray_hit h[FZ_MAX_ENTRIES + 2];
    int count;
    memset(h, FZ_POISON, sizeof h);
    memset(&count, FZ_POISON, sizeof count);
    fz_world_snap before;
    fz_world_snapshot(st, &before);
    c2d_status r = all ? c2d_world_raycast_all(st->world, o, d, max_t, f, h, cap, &count)
                       : c2d_world_raycast(st->world, o, d, max_t, f, h);
    fz_check_status(r);
    int ok = st->world && fz_ok_vec(o) && fz_ok_vec(d) && !(d.x == 0 && d.y == 0) && !isnan(max_t) && max_t >= 0 &&
             (!all || cap >= 0);
    if (!ok) {
        FZ_CHECK(r != C2D_OK && r != C2D_ERR_CAPACITY, "bad world ray accepted");
        FZ_CHECK(fz_is_poison(h, sizeof h) && fz_is_poison(&count, sizeof count), "world ray wrote on error");
        FZ_CHECK(q.calls == 0, "a rejected ray ran the callback");
        fz_world_snap after;
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected ray changed the world");
        return;
    }
    FZ_CHECK(r == C2D_OK || (all && r == C2D_ERR_CAPACITY), "world ray gave %d", (int)r);
    if (r != C2D_OK) {
        FZ_CHECK(count > cap && fz_is_poison(h, sizeof h), "ray capacity %d count %d", cap, count);
        fz_bury(st);
        return;
    }
    int n = all ? count : h[0].ray.hit;
    if (!all && !h[0].ray.hit) {
        c2d_world_ray_hit z;
        memset(&z, 0, sizeof z);
        FZ_CHECK(memcmp(&z, &h[0], sizeof z) == 0, "world raycast miss not all zero");
    }
    FZ_CHECK(n >= 0 && n <= FZ_MAX_ENTRIES, "ray count %d", n);
    /* Each hit: a live entry, hit as c2d_raycast hits its shape, in order of t and then world order. */
    int seen[FZ_MAX_ENTRIES];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < n; i++) {
        int k = fz_entry_of(st, h[i].id);
        FZ_CHECK(k >= 0 && !seen[k] && h[i].user == st->ent[k].user, "ray hit %d: id %llu not a live entry (or twice)", i,
                 (unsigned long long)h[i].id);
        seen[k] = 1;
        c2d_ray_hit one;
        c2d_raycast(st->ent[k].shape, o, d, max_t, &one);
        FZ_CHECK(h[i].ray.hit == 1 && memcmp(&one, &h[i].ray, sizeof one) == 0,
                 "ray hit %d on entry %d differs from c2d_raycast (t %.17g vs %.17g, hit %d)", i, k, h[i].ray.t, one.t,
                 one.hit);
        FZ_CHECK(isfinite(h[i].ray.t), "ray hit at t %g", h[i].ray.t);
        if (i > 0)
            FZ_CHECK(h[i - 1].ray.t < h[i].ray.t ||
                         (h[i - 1].ray.t == h[i].ray.t && fz_before(h[i - 1].user, h[i - 1].id, h[i].user, h[i].id)),
                     "ray hits %d and %d out of order", i - 1, i);
    }
    int written = all ? n : 1;
    FZ_CHECK(fz_is_poison(h + written, sizeof h - (size_t)written * sizeof h[0]), "ray wrote past its count");
    double first = INFINITY;
    for (int k = 0; k < st->n_ent; k++) {
        const fz_entry *e = &st->ent[k];
        if (!e->live)
            continue;
        c2d_ray_hit one;
        c2d_raycast(e->shape, o, d, max_t, &one);
        int want = one.hit && isfinite(one.t) && fz_bits_pass(f, e->cat, e->mask);
        if (want && f && f->accept) {
            FZ_CHECK(q.called[k] || !all, "the callback was not asked about entry %d, which the ray hits", k);
            want = q.called[k] && q.said[k];
        }
        if (all)
            FZ_CHECK(seen[k] == want, "entry %d %s", k, want ? "missing from raycast_all" : "wrongly in raycast_all");
        else if (want)
            first = fmin(first, one.t);
    }
    if (!all) {
        /* The first hit: nothing accepted hits earlier (callbacks may stop early, so only that). */
        FZ_CHECK(n == 0 ? first == INFINITY || (f && f->accept) : h[0].ray.t <= first || (f && f->accept),
                 "raycast hit t %.17g but an entry is hit at %.17g", n ? h[0].ray.t : -1.0, first);
    }
    fz_bury(st);
}

static void op_world_pairs(fz_state *st)
{
    int cap = (int)(fz_byte(st) % 40) - 2;
    uint8_t mode = fz_byte(st);
    enum { PMAX = FZ_MAX_ENTRIES * (FZ_MAX_ENTRIES - 1) / 2 };
    static c2d_world_pair out[PMAX + 2];
    static c2d_contact con[PMAX + 2];
    int usecap = cap > PMAX ? PMAX : cap;
    int count;
    memset(out, FZ_POISON, sizeof out);
    memset(con, FZ_POISON, sizeof con);
    memset(&count, FZ_POISON, sizeof count);
    int with_contacts = mode & 1;
    fz_world_snap before;
    fz_world_snapshot(st, &before);
    int count_only = (mode & 2) && usecap == 0;
    c2d_status r = c2d_world_pairs(st->world, count_only ? NULL : out, with_contacts ? con : NULL, usecap, &count);
    fz_check_status(r);
    if (!st->world || usecap < 0) {
        FZ_CHECK(r != C2D_OK && r != C2D_ERR_CAPACITY, "bad pairs call accepted");
        FZ_CHECK(fz_is_poison(out, sizeof out) && fz_is_poison(con, sizeof con) && fz_is_poison(&count, sizeof count),
                 "pairs wrote on error");
        fz_world_snap after;
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected pairs changed the world");
        return;
    }
    FZ_CHECK(r == C2D_OK || r == C2D_ERR_CAPACITY, "pairs gave %d", (int)r);
    if (count_only) {
        /* The header's rule for every list: no array asks for the count only, and is answered C2D_OK. */
        FZ_CHECK(r == C2D_OK && count >= 0 && count <= PMAX && fz_is_poison(con, sizeof con),
                 "pairs asked for the count gave %d, count %d", (int)r, count);
        return;
    }
    if (r != C2D_OK) {
        FZ_CHECK(count > usecap && fz_is_poison(out, sizeof out) && fz_is_poison(con, sizeof con),
                 "pairs capacity %d count %d", usecap, count);
        return;
    }
    FZ_CHECK(count >= 0 && count <= usecap, "pairs count %d capacity %d", count, usecap);
    int seen[FZ_MAX_ENTRIES][FZ_MAX_ENTRIES];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < count; i++) {
        int ka = fz_entry_of(st, out[i].a), kb = fz_entry_of(st, out[i].b);
        FZ_CHECK(ka >= 0 && kb >= 0 && ka != kb, "pair %d: ids %llu, %llu not two live entries", i,
                 (unsigned long long)out[i].a, (unsigned long long)out[i].b);
        FZ_CHECK(out[i].user_a == st->ent[ka].user && out[i].user_b == st->ent[kb].user, "pair %d: wrong users", i);
        FZ_CHECK(fz_before(out[i].user_a, out[i].a, out[i].user_b, out[i].b), "pair %d: a after b", i);
        FZ_CHECK(!seen[ka][kb], "pair %d reported twice", i);
        seen[ka][kb] = 1;
        if (i > 0) {
            const c2d_world_pair *p = &out[i - 1], *c = &out[i];
            int ordered = p->a != c->a ? fz_before(p->user_a, p->a, c->user_a, c->a)
                                       : fz_before(p->user_b, p->b, c->user_b, c->b);
            FZ_CHECK(ordered, "pairs %d and %d out of order", i - 1, i);
        }
        if (with_contacts) {
            c2d_contact want;
            c2d_collide(st->ent[ka].shape, st->ent[kb].shape, &want);
            FZ_CHECK(memcmp(&want, &con[i], sizeof want) == 0, "pair %d: contact differs from c2d_collide", i);
        }
    }
    FZ_CHECK(fz_is_poison(out + count, sizeof out - (size_t)count * sizeof out[0]), "pairs wrote past the count");
    if (with_contacts)
        FZ_CHECK(fz_is_poison(con + count, sizeof con - (size_t)count * sizeof con[0]),
                 "pairs wrote contacts past the count");
    else
        FZ_CHECK(fz_is_poison(con, sizeof con), "pairs wrote contacts though none were asked for");
    for (int ka = 0; ka < st->n_ent; ka++)
        for (int kb = 0; kb < st->n_ent; kb++) {
            const fz_entry *a = &st->ent[ka], *b = &st->ent[kb];
            if (ka == kb || !a->live || !b->live || !fz_before(a->user, a->id, b->user, b->id))
                continue;
            int want = (a->cat & b->mask) && (b->cat & a->mask);
            if (want && st->pair_mod)
                want = (a->user + b->user) % (uintptr_t)(st->pair_mod + 1) != 0 || st->pair_mod == 1;
            int o = 0;
            c2d_overlap(a->shape, b->shape, &o);
            want = want && o;
            FZ_CHECK(seen[ka][kb] == want, "entries %d and %d (kinds %d, %d) %s", ka, kb,
                     (int)c2d_shape_get_type(a->shape), (int)c2d_shape_get_type(b->shape),
                     want ? "overlap but are not a pair" : "are a pair but should not be");
        }
}

static void op_world_optimize(fz_state *st)
{
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status r = c2d_world_optimize(st->world);
    FZ_CHECK(r == (st->world ? C2D_OK : C2D_ERR_NULL) || r == C2D_ERR_NO_MEMORY, "optimize gave %d", (int)r);
    fz_world_snapshot(st, &after);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "optimize changed the entries");
    int n = -3;
    FZ_CHECK(c2d_world_count(st->world, NULL) == C2D_ERR_NULL, "count to NULL accepted");
    FZ_CHECK(st->world || (c2d_world_count(NULL, &n) == C2D_ERR_NULL && n == -3), "count of NULL accepted");
}

/* World moves and ball steps: the response callback picks per entry; checked like the static set's. */
typedef struct fz_respond_ctx {
    fz_state *st;
    uint8_t salt;
    int remove;
} fz_respond_ctx;

static c2d_response fz_respond(void *ctx, c2d_world_id id, uintptr_t user)
{
    fz_respond_ctx *rc = (fz_respond_ctx *)ctx;
    int k = fz_entry_of(rc->st, id);
    FZ_CHECK(k >= 0 && rc->st->ent[k].user == user, "respond called for id %llu, not a live entry",
             (unsigned long long)id);
    if (rc->remove && rc->salt % 3 == 0)
        fz_entry_remove(rc->st, k);
    return (c2d_response)((user + rc->salt) % 5);
}

/* The response a world move applies to entry e (NONE: ignored). */
static c2d_response fz_world_response(const fz_respond_ctx *rc, int use_respond, const c2d_move_options *o,
                                      c2d_response dflt, const fz_entry *e)
{
    if (use_respond)
        return (c2d_response)((e->user + rc->salt) % 5);
    return o && o->response != C2D_RESPONSE_NONE ? o->response : dflt;
}

/* Smallest distance from s (moved by d) to the live entries passing the filter bits whose response
 * stops the mover (the callback answers are not known here, so entries it saw are checked only when
 * it accepted them; others were never considered). */
static double fz_world_clearance(fz_state *st, const c2d_shape *s, c2d_vec2 d, const c2d_world_filter *f,
                                 const fz_query_ctx *q, const fz_respond_ctx *rc, int use_respond,
                                 const c2d_move_options *o, c2d_response dflt, const c2d_shape *skip, int *which)
{
    double best = INFINITY;
    *which = -1;
    c2d_shape *m = fz_moved(s, d, 1);
    if (!m)
        return NAN;
    for (int k = 0; k < st->n_ent; k++) {
        const fz_entry *e = &st->ent[k];
        if (!e->live || e->shape == skip || !fz_bits_pass(f, e->cat, e->mask))
            continue;
        if (f && f->accept && !(q->called[k] && q->said[k]))
            continue;
        if (e->ow.x != 0 || e->ow.y != 0 || e->os)
            continue; /* one-way (or a one-sided chain): a mover may end inside it (passing through from below or a side) */
        c2d_response resp = fz_world_response(rc, use_respond, o, dflt, e);
        if (resp == C2D_RESPONSE_NONE || resp == C2D_RESPONSE_CROSS)
            continue;
        c2d_distance_result r;
        if (c2d_distance(m, e->shape, &r) == C2D_OK && r.distance < best) {
            best = r.distance;
            *which = k;
        }
    }
    c2d_shape_destroy(m);
    return best;
}

static void fz_check_world_contacts(fz_state *st, const c2d_world_contact *c, int cap, int count)
{
    int written = count < cap ? count : cap;
    double last = 0;
    for (int k = 0; k < written; k++) {
        FZ_CHECK(c[k].id != 0, "world contact %d has id 0", k);
        FZ_CHECK(isfinite(c[k].contact.t) && c[k].contact.t >= 0 && c[k].contact.t <= 1 && c[k].contact.t >= last,
                 "world contact %d at t %.17g", k, c[k].contact.t);
        last = c[k].contact.t;
        fz_check_unit(c[k].contact.normal, "world contact normal");
        FZ_CHECK((int)c[k].contact.response >= 1 && (int)c[k].contact.response <= 4, "world contact response %d",
                 (int)c[k].contact.response);
    }
    (void)st;
    FZ_CHECK(fz_is_poison(c + written, (size_t)(16 - written) * sizeof *c), "world contacts written past %d", written);
}

/* A fresh copy of a query filter's context for running the same call again: the accept callback
 * checks that it is asked at most once per entry in one call. */
static const c2d_world_filter *fz_filter_again(const c2d_world_filter *f, const fz_query_ctx *q,
                                               c2d_world_filter *f2, fz_query_ctx *q2)
{
    if (!f)
        return NULL;
    *q2 = *q;
    q2->calls = 0;
    memset(q2->called, 0, sizeof q2->called);
    memset(q2->said, 0, sizeof q2->said);
    *f2 = *f;
    f2->ctx = q2;
    q2->filter = f2;
    return f2;
}

/* The _records forms of a world move or ball step against the plain call just made (result res, ball
 * b1, contacts c[0 .. min(count, usecap))), as fz_check_set_records does for a set: the plain call
 * again with room for every contact, the records call with that room, and the records call short of
 * room, each with fresh callback contexts (the callbacks answer the same for the same entry, and are
 * only used here when they change nothing). Record i holds plain contact i's contact, and its entry's
 * id and user value, which are those of a live entry. */
static void fz_check_world_records(fz_state *st, int ball_step, const c2d_shape *m, c2d_vec2 d, const c2d_ball *b0,
                                   const c2d_ball *b1, double dt, const c2d_world_filter *f, const fz_query_ctx *q,
                                   c2d_world_response_fn respond, const fz_respond_ctx *rc,
                                   const c2d_move_options *op, const c2d_move_result *res, const c2d_world_contact *c,
                                   int usecap)
{
    const char *what = ball_step ? "world ball step" : "world move";
    c2d_world_filter f2;
    fz_query_ctx q2;
    fz_respond_ctx rc2;
    c2d_move_result r1, r2, r3;
    c2d_ball bb;
    double s = fmax(ball_step ? fz_vec_mag(b1->position) + b1->radius : fz_shape_scale(m),
                    fz_vec_mag(res->displacement) + fz_vec_mag(d));
    for (int k = 0; k < st->n_ent; k++)
        if (st->ent[k].live)
            s = fmax(s, fz_shape_scale(st->ent[k].shape));
    if (ball_step)
        s += fz_vec_mag(b0->position) + fz_vec_mag(b0->velocity) * dt;

    rc2 = *rc;
    bb = *b0;
    const c2d_world_filter *fp = fz_filter_again(f, q, &f2, &q2);
    memset(fz_wall, FZ_POISON, sizeof fz_wall);
    c2d_status s1 = ball_step ? c2d_world_step_ball(st->world, &bb, dt, fp, respond, &rc2, op, &r1, fz_wall, FZ_REC_MAX)
                              : c2d_world_move(st->world, m, d, fp, respond, &rc2, op, &r1, fz_wall, FZ_REC_MAX);
    FZ_CHECK(s1 == C2D_OK && fz_result_same(&r1, res) && (!ball_step || memcmp(&bb, b1, sizeof bb) == 0),
             "the plain %s with room for every contact gave %d and another result", what, (int)s1);
    int written = res->count < usecap ? res->count : usecap, all = res->count < FZ_REC_MAX ? res->count : FZ_REC_MAX;
    for (int i = 0; i < written; i++)
        FZ_CHECK(fz_wall[i].id == c[i].id && fz_wall[i].user == c[i].user &&
                     fz_contact_same(&fz_wall[i].contact, &c[i].contact),
                 "%s contact %d differs with room for every contact", what, i);

    rc2 = *rc;
    bb = *b0;
    fp = fz_filter_again(f, q, &f2, &q2);
    memset(fz_rec, FZ_POISON, sizeof fz_rec);
    memset(&r2, FZ_POISON, sizeof r2);
    c2d_status s2 = ball_step
                        ? c2d_world_step_ball_records(st->world, &bb, dt, fp, respond, &rc2, op, &r2, fz_rec, FZ_REC_MAX)
                        : c2d_world_move_records(st->world, m, d, fp, respond, &rc2, op, &r2, fz_rec, FZ_REC_MAX);
    FZ_CHECK(s2 == C2D_OK && fz_result_same(&r2, res) && (!ball_step || memcmp(&bb, b1, sizeof bb) == 0),
             "the %s with records gave %d and another result than the plain call", what, (int)s2);
    for (int i = 0; i < all; i++) {
        FZ_CHECK(fz_contact_same(&fz_rec[i].contact, &fz_wall[i].contact) && fz_rec[i].id == fz_wall[i].id &&
                     fz_rec[i].user == fz_wall[i].user,
                 "%s record %d (id %llu user %llu) is not plain contact %d (id %llu user %llu)", what, i,
                 (unsigned long long)fz_rec[i].id, (unsigned long long)fz_rec[i].user, i,
                 (unsigned long long)fz_wall[i].id, (unsigned long long)fz_wall[i].user);
        int k = fz_entry_of(st, fz_rec[i].id);
        FZ_CHECK(k >= 0 && st->ent[k].user == fz_rec[i].user, "%s record %d names id %llu user %llu, no live entry",
                 what, i, (unsigned long long)fz_rec[i].id, (unsigned long long)fz_rec[i].user);
        fz_check_record_position(&fz_rec[i], i, ball_step ? NULL : m, ball_step ? b0->radius : 0, st->ent[k].shape,
                                 fz_v(0, 0), 0, s, st->ent[k].os || st->ent[k].ow.x != 0 || st->ent[k].ow.y != 0);
    }
    FZ_CHECK(fz_is_poison(fz_rec + all, (size_t)(FZ_REC_MAX - all) * sizeof fz_rec[0]),
             "%s records written past the count %d", what, all);

    int cap = fz_short_capacity(res->count, usecap + 2);
    c2d_contact_record *out = cap == 0 && (res->count & 1) ? NULL : fz_rec_short;
    rc2 = *rc;
    bb = *b0;
    fp = fz_filter_again(f, q, &f2, &q2);
    memset(fz_rec_short, FZ_POISON, sizeof fz_rec_short);
    memset(&r3, FZ_POISON, sizeof r3);
    c2d_status s3 = ball_step ? c2d_world_step_ball_records(st->world, &bb, dt, fp, respond, &rc2, op, &r3, out, cap)
                              : c2d_world_move_records(st->world, m, d, fp, respond, &rc2, op, &r3, out, cap);
    FZ_CHECK(s3 == C2D_OK && fz_result_same(&r3, res) && (!ball_step || memcmp(&bb, b1, sizeof bb) == 0),
             "the %s with room for %d records gave %d and another result (count %d)", what, cap, (int)s3, r3.count);
    for (int i = 0; i < cap; i++)
        FZ_CHECK(fz_record_same(&fz_rec_short[i], &fz_rec[i]), "%s record %d differs with room for %d", what, i, cap);
    FZ_CHECK(fz_is_poison(fz_rec_short + cap, (size_t)(FZ_REC_MAX - cap) * sizeof fz_rec_short[0]),
             "%s with room for %d records wrote more", what, cap);
}

static void op_world_move(fz_state *st)
{
    uint8_t kind = fz_byte(st);
    int ball_step = kind & 1;
    const c2d_shape *m = st->slot[fz_slot(st)];
    if (kind & 2) {
        uint8_t pick = fz_byte(st);
        if (st->n_ent > 0 && st->ent[pick % st->n_ent].live)
            m = st->ent[pick % st->n_ent].shape; /* a shape of the world itself: its entry is skipped */
    }
    c2d_vec2 d = fz_vec(st);
    c2d_ball b;
    double dt = 1;
    if (ball_step) {
        b = fz_ball(st);
        dt = fz_number(st);
    }
    c2d_world_filter fl;
    fz_query_ctx q;
    const c2d_world_filter *f = fz_filter(st, &fl, &q);
    fz_respond_ctx rc;
    rc.st = st;
    rc.salt = fz_byte(st);
    rc.remove = (kind & 4) != 0;
    int use_respond = (kind & 8) != 0;
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    c2d_response dflt = ball_step ? C2D_RESPONSE_BOUNCE : C2D_RESPONSE_SLIDE;
    const c2d_move_options *op = fz_move_options(st, &o, arr, FZ_SET_MAX, dflt, resp, &opt_ok);
    if (op && op->responses)
        opt_ok = 0; /* per-shape arrays are refused by world moves */
    int cap = (int)(fz_byte(st) % 19) - 2;
    int usecap = cap > 16 ? 16 : cap;
    c2d_world_contact c[16];
    c2d_move_result res;
    memset(c, FZ_POISON, sizeof c);
    memset(&res, FZ_POISON, sizeof res);
    c2d_ball b0;
    memset(&b0, 0, sizeof b0);
    if (ball_step)
        b0 = b;
    fz_world_snap before;
    fz_world_snapshot(st, &before);
    c2d_status r = ball_step ? c2d_world_step_ball(st->world, &b, dt, f, use_respond ? fz_respond : NULL, &rc, op,
                                                   &res, c, usecap)
                             : c2d_world_move(st->world, m, d, f, use_respond ? fz_respond : NULL, &rc, op, &res, c,
                                              usecap);
    fz_check_status(r);
    if (fz_trace && r == C2D_OK) {
        fprintf(stderr, " -> moved (%.17g, %.17g) count %d%s%s filter %d", res.displacement.x, res.displacement.y,
                res.count, use_respond ? " respond" : "", rc.remove ? " removing" : "", f != NULL);
        if (!ball_step && m)
            fz_dump_shape("\nworld mover", 0, m);
    }
    int ok = st->world && usecap >= 0 && opt_ok && (ball_step ? fz_ball_ok(&b0, dt) : (m && fz_ok_vec(d)));
    /* A chain or concave polygon is no mover: C2D_ERR_NOT_CONVEX when nothing else is wrong. */
    int compound = !ball_step && m && fz_is_compound(m);
    if (ok && compound)
        FZ_CHECK(r == C2D_ERR_NOT_CONVEX, "world move of a compound mover gave %d", (int)r);
    ok = ok && !compound;
    if (!ok) {
        FZ_CHECK(r != C2D_OK, "bad world %s accepted", ball_step ? "ball step" : "move");
        FZ_CHECK(fz_is_poison(&res, sizeof res) && fz_is_poison(c, sizeof c), "world move wrote on error");
        if (ball_step)
            FZ_CHECK(memcmp(&b, &b0, sizeof b) == 0, "rejected world ball step changed the ball");
        if (!rc.remove && q.calls == 0) {
            fz_world_snap after;
            fz_world_snapshot(st, &after);
            FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected world move changed the world");
            /* Refused before any callback ran: the records form refuses it too, writing nothing. */
            c2d_world_filter f2;
            fz_query_ctx q2;
            fz_respond_ctx rc2 = rc;
            const c2d_world_filter *fp = fz_filter_again(f, &q, &f2, &q2);
            memset(fz_rec, FZ_POISON, sizeof fz_rec);
            c2d_status r2 = ball_step ? c2d_world_step_ball_records(st->world, &b, dt, fp, use_respond ? fz_respond : NULL,
                                                                    &rc2, op, &res, fz_rec, usecap)
                                      : c2d_world_move_records(st->world, m, d, fp, use_respond ? fz_respond : NULL,
                                                               &rc2, op, &res, fz_rec, usecap);
            FZ_CHECK(r2 == r && (!ball_step || memcmp(&b, &b0, sizeof b) == 0) && fz_is_poison(&res, sizeof res) &&
                         fz_is_poison(fz_rec, sizeof fz_rec),
                     "world %s records gave %d where the plain call gave %d, or wrote on error",
                     ball_step ? "ball step" : "move", (int)r2, (int)r);
        }
        fz_bury(st);
        return;
    }
    FZ_CHECK(r == C2D_OK, "world %s rejected with %d", ball_step ? "ball step" : "move", (int)r);
    fz_check_move_result(&res);
    fz_check_world_contacts(st, c, usecap, res.count);
    /* One-way entries, as for a set's one-way members (fz_check_one_way_contacts). */
    for (int k = 0; k < res.count && k < usecap; k++) {
        int e = fz_entry_of(st, c[k].id);
        if (e >= 0 && st->ent[e].os && st->ent[e].ow.x == 0 && st->ent[e].ow.y == 0) {
            /* A one-sided chain entry: its segments block from their right (as in a set). */
            double sc = fz_shape_scale(st->ent[e].shape) + fz_vec_mag(c[k].contact.point);
            FZ_CHECK(!c[k].contact.pushed_out, "world contact %d: pushed out of one-sided chain entry %d", k, e);
            if (c[k].contact.response != C2D_RESPONSE_CROSS)
                FZ_CHECK(fz_chain_side_ok(st->ent[e].shape, fz_v(0, 0), c[k].contact.point, c[k].contact.normal,
                                          FZ_REL_TOL * 4 * (1 + sc)),
                         "world contact %d with one-sided chain entry %d from the left of its segments at (%.17g, %.17g), "
                         "normal (%.17g, %.17g)",
                         k, e, c[k].contact.point.x, c[k].contact.point.y, c[k].contact.normal.x, c[k].contact.normal.y);
            continue;
        }
        if (e < 0 || (st->ent[e].ow.x == 0 && st->ent[e].ow.y == 0))
            continue;
        c2d_vec2 u = st->ent[e].ow;
        FZ_CHECK(!c[k].contact.pushed_out, "world contact %d: pushed out of one-way entry %d", k, e);
        if (c[k].contact.response != C2D_RESPONSE_CROSS)
            FZ_CHECK(c[k].contact.normal.x * u.x + c[k].contact.normal.y * u.y > 0,
                     "world contact %d with one-way entry %d (direction (%.17g, %.17g)) from the side, normal (%.17g, %.17g)",
                     k, e, u.x, u.y, c[k].contact.normal.x, c[k].contact.normal.y);
    }
    /* Never ends inside an entry that stops it. With a removing callback the entries it saw are not
     * known for sure, so only without one. */
    if (!rc.remove && !(f && f->accept && (q.mode & 1))) {
        c2d_shape *mover = NULL;
        const c2d_shape *skip = NULL;
        c2d_vec2 disp = res.displacement;
        if (ball_step) {
            if (c2d_circle_new(b.position.x, b.position.y, b.radius, &mover) != C2D_OK)
                mover = NULL;
            disp = fz_v(0, 0);
        } else {
            c2d_shape_clone(m, &mover);
            skip = m;
        }
        if (mover) {
            double s = fmax(fz_shape_scale(mover), fz_vec_mag(disp) + fz_vec_mag(d));
            for (int k = 0; k < st->n_ent; k++)
                if (st->ent[k].live)
                    s = fmax(s, fz_shape_scale(st->ent[k].shape));
            if (ball_step)
                s += fz_vec_mag(b0.position) + fz_vec_mag(b0.velocity) * dt;
            double tol = FZ_REL_TOL * 4 * (1 + s);
            int w;
            double d1 = fz_world_clearance(st, mover, disp, f, &q, &rc, use_respond, op, dflt, skip, &w);
            FZ_CHECK(!(d1 < -tol), "the world %s ends %.17g inside entry %d (tol %g)",
                     ball_step ? "ball" : "mover", d1, w, tol);
            c2d_shape_destroy(mover);
        }
    }
    /* The records forms, when running the call again sees the same world: not after a callback that
     * removes entries (the model may no longer say which answered what, and the world changed). */
    if (!rc.remove && !(f && f->accept && (q.mode & 1)))
        fz_check_world_records(st, ball_step, m, d, &b0, &b, dt, f, &q, use_respond ? fz_respond : NULL, &rc, op,
                               &res, c, usecap);
    fz_bury(st);
}

/* c2d_world_set_one_way on a live, removed or made-up id (anything, zero, -0, or along y): the
 * header's status, nothing changed on error; accepted, get_one_way gives the direction's unit vector
 * (zero for zero), which the model keeps; moves and ball steps then leave the entry out of their
 * never-inside checks. */
static void op_world_one_way(fz_state *st)
{
    c2d_world_id id;
    int k = fz_entry_pick(st, &id);
    uint8_t mode = fz_byte(st);
    c2d_vec2 v;
    switch (mode & 3) {
    case 0:
        v = fz_vec(st);
        break;
    case 1:
        v = fz_v(0, fz_number(st));
        break;
    case 2:
        v = fz_v(0, 0);
        break;
    default:
        v = fz_v(-0.0, -0.0);
        break;
    }
    if (st->world && (k < 0 || !st->ent[k].live))
        k = fz_entry_of(st, id); /* a made-up or reused id may be that of a live entry */
    int live = st->world && k >= 0 && st->ent[k].live;
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status s = c2d_world_set_one_way(st->world, id, v);
    fz_check_status(s);
    c2d_status want = !st->world ? C2D_ERR_NULL : !live ? C2D_ERR_RANGE : fz_vec_status(v);
    c2d_vec2 got;
    memset(&got, FZ_POISON, sizeof got);
    FZ_CHECK(c2d_world_get_one_way(st->world, id, NULL) == C2D_ERR_NULL, "get_one_way to NULL accepted");
    if (want != C2D_OK || s == C2D_ERR_NO_MEMORY) {
        FZ_CHECK(s == want || s == C2D_ERR_NO_MEMORY, "world set_one_way of id %llu (%.17g, %.17g) gave %d, not %d",
                 (unsigned long long)id, v.x, v.y, (int)s, (int)want);
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "rejected world set_one_way changed the world");
        if (!live)
            FZ_CHECK(c2d_world_get_one_way(st->world, id, &got) == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL) &&
                         fz_is_poison(&got, sizeof got),
                     "get_one_way of id %llu, not live, answered or wrote", (unsigned long long)id);
        return;
    }
    FZ_CHECK(s == C2D_OK, "world set_one_way rejected with %d", (int)s);
    FZ_CHECK(c2d_world_get_one_way(st->world, id, &got) == C2D_OK, "world get_one_way failed");
    fz_check_one_way_dir(v, got, "world set_one_way");
    st->ent[k].ow = got;
    fz_world_snapshot(st, &after);
}


/* ---- chains and concave polygons: construction ------------------------------------------------- */

/* A ring of points from the input (at most max, at least min_n unless raw), around c at scale r:
 * raw points, a star (radii and angles jittered), a regular polygon, points of a small lattice (exact
 * when r is a power of two: touching points, collinear runs and crossings), a mountain range on a flat
 * bar, a histogram (rectilinear), a star with spikes down to 2^-31 of its radius (slivers), or a copy
 * of a slot's vertices (exactly shared points). Then either winding, and up to three mutations: a
 * point repeated, an edge's midpoint inserted (collinear when exact), two points swapped (a crossing),
 * a point moved onto another point or onto an edge's midpoint (touching). Returns the count. */
static int fz_gen_ring(fz_state *st, c2d_vec2 *out, int max, int min_n, c2d_vec2 c, double r)
{
    uint8_t g = fz_byte(st), w = fz_byte(st);
    int n = min_n + (g >> 3) % (max - min_n + 1), kind = g & 7;
    const double two_pi = 6.283185307179586;
    if (fz_trace)
        fprintf(stderr, " {ring kind %d n %d", kind, n);
    switch (kind) {
    case 0:
        for (int i = 0; i < n; i++)
            out[i] = fz_vec(st);
        break;
    case 1:
    case 2:
    case 6:
        for (int i = 0; i < n; i++) {
            uint8_t b = kind == 2 ? 0 : fz_byte(st);
            double f = kind == 1 ? 0.25 + (b & 15) / 20.0 : kind == 6 ? ldexp(1.0, -(b & 31)) : 1.0;
            double t = two_pi * (i + (kind == 1 ? (b >> 4) / 16.0 : 0.0)) / n;
            out[i] = fz_v(c.x + r * f * cos(t), c.y + r * f * sin(t));
        }
        break;
    case 3:
        for (int i = 0; i < n; i++) {
            uint8_t b = fz_byte(st);
            out[i] = fz_v(c.x + r * ((b & 7) - 3), c.y + r * (((b >> 3) & 7) - 3));
        }
        break;
    case 4: { /* a flat bottom and a mountain range above it (heights 0 touch the bottom) */
        int cols = n - 2;
        out[0] = fz_v(c.x, c.y);
        out[1] = fz_v(c.x + r * (cols - 1), c.y);
        for (int i = 0; i < cols; i++)
            out[2 + i] = fz_v(c.x + r * (cols - 1 - i), c.y + r * ((fz_byte(st) & 15) / 4.0));
        break;
    }
    case 5: { /* a histogram: columns of heights 0 (touching the bottom) to 7 */
        int cols = (n - 2) / 2;
        if (cols < 1)
            cols = 1;
        out[0] = fz_v(c.x, c.y);
        out[1] = fz_v(c.x + r * cols, c.y);
        for (int i = cols - 1, k = 2; i >= 0; i--) {
            double h = fz_byte(st) & 7;
            out[k++] = fz_v(c.x + r * (i + 1), c.y + r * h);
            out[k++] = fz_v(c.x + r * i, c.y + r * h);
        }
        n = 2 + 2 * cols;
        break;
    }
    default: { /* a slot's vertices as placed */
        const c2d_shape *s = st->slot[fz_byte(st) % FZ_SLOTS];
        c2d_vec2 v[FZ_MAX_VERTS];
        int m = 0;
        if (!s || c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &m) != C2D_OK)
            m = 0;
        n = m < max ? m : max;
        for (int i = 0; i < n; i++)
            out[i] = v[i];
        break;
    }
    }
    if (w & 1)
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            c2d_vec2 t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
    for (int k = 0; k < ((w >> 1) & 3) && n > 0; k++) {
        uint8_t op = fz_byte(st), a = fz_byte(st);
        int i = a % n, j = (a >> 4) % n;
        c2d_vec2 mid_j = fz_v(0.5 * (out[j].x + out[(j + 1) % n].x), 0.5 * (out[j].y + out[(j + 1) % n].y));
        switch (op % 5) {
        case 0: /* repeat point i */
        case 1: /* insert the midpoint of edge i */
            if (n < max) {
                c2d_vec2 ins = op % 5 == 0 ? out[i]
                                          : fz_v(0.5 * (out[i].x + out[(i + 1) % n].x),
                                                 0.5 * (out[i].y + out[(i + 1) % n].y));
                for (int q = n; q > i + 1; q--)
                    out[q] = out[q - 1];
                out[i + 1] = ins;
                n++;
            }
            break;
        case 2: { /* swap points i and i + 1 */
            c2d_vec2 t = out[i];
            out[i] = out[(i + 1) % n];
            out[(i + 1) % n] = t;
            break;
        }
        case 3:
            out[i] = out[j];
            break;
        default:
            out[i] = mid_j;
            break;
        }
    }
    if (fz_trace) {
        fprintf(stderr, ":");
        for (int i = 0; i < n; i++)
            fprintf(stderr, " (%.17g, %.17g)", out[i].x, out[i].y);
        fprintf(stderr, "}");
    }
    return n;
}

#define FZ_BIT(s) (1u << (unsigned)(s))

/* The statuses of a coordinate check over n points (first x, then y): NOT_FINITE and RANGE bits. */
static unsigned fz_points_errors(const c2d_vec2 *p, int n)
{
    unsigned e = 0;
    for (int i = 0; i < n; i++) {
        c2d_status a = fz_number_status(p[i].x), b = fz_number_status(p[i].y);
        if (a != C2D_OK)
            e |= FZ_BIT(a);
        if (b != C2D_OK)
            e |= FZ_BIT(b);
    }
    return e;
}

/* The geometric statuses of a concave polygon whose arguments are all valid, by the harness's own
 * exact O(n^2) test of the header's rules on the rings: DEGENERATE for a ring of fewer than 3 distinct
 * points or all on one line; NOT_SIMPLE for a ring that crosses, touches or doubles back along itself,
 * a hole that meets the outline or is not inside it, two holes that meet or one inside another. When a
 * ring is degenerate and the others break a rule too, either status is right (which one a library
 * reports depends on the order it looks at the rings in). None: OK (or NO_MEMORY). */
static unsigned fz_concave_expect(const c2d_vec2 *const *ring, const int *cnt, int rings)
{
    c2d_vec2 d[1 + FZ_HOLES][FZ_RING_PTS];
    int k[1 + FZ_HOLES], degen[1 + FZ_HOLES], deg = 0, viol = 0;
    for (int r = 0; r < rings; r++) {
        k[r] = fz_ring_dedupe(ring[r], cnt[r], d[r]);
        degen[r] = fz_ring_degenerate(d[r], k[r]);
        deg |= degen[r];
        if (!degen[r] && !fz_ring_simple(d[r], k[r]))
            viol = 1;
    }
    for (int h = 1; h < rings && !degen[0] && !viol; h++) {
        if (degen[h])
            continue;
        if (fz_rings_meet(d[0], k[0], d[h], k[h]) || !fz_ring_parity(d[0], k[0], d[h][0]))
            viol = 1;
        for (int g = 1; g < h && !viol; g++)
            if (!degen[g] && (fz_rings_meet(d[g], k[g], d[h], k[h]) || fz_ring_parity(d[g], k[g], d[h][0]) ||
                              fz_ring_parity(d[h], k[h], d[g][0])))
                viol = 1;
    }
    if (deg)
        return FZ_BIT(C2D_ERR_DEGENERATE) | (viol ? FZ_BIT(C2D_ERR_NOT_SIMPLE) : 0);
    return viol ? FZ_BIT(C2D_ERR_NOT_SIMPLE) : FZ_BIT(C2D_OK) | FZ_BIT(C2D_ERR_NO_MEMORY);
}

/* Whether the rings are so thin that measured from their centroid, where c2d_concave_new keeps its
 * parts, every point is within rounding of one line: each point within 8 ulps of twice the scene's
 * size (the reach of a point from a centroid inside) of the line through the two points farthest
 * apart. Then every part may round flat and be left out, and the header gives C2D_ERR_DEGENERATE.
 * (Until issue 22 any three points within 1e-12 of the scene of a line let c2d_concave_new say
 * DEGENERATE: its parts went through c2d_polygon_new's unstated area tolerance, and parts measured
 * from a centroid near one end of a ring that spans the range were refused as out of range.) */
static int fz_rings_flat(const c2d_vec2 *const *ring, const int *cnt, int rings)
{
    c2d_vec2 p[1 + FZ_HOLES * FZ_RING_PTS + FZ_RING_PTS];
    int n = 0, fi = 0, fj = 0;
    double mag = 0, far = -1;
    for (int r = 0; r < rings; r++)
        for (int i = 0; i < cnt[r] && n < (int)(sizeof p / sizeof p[0]); i++) {
            p[n++] = ring[r][i];
            mag = fmax(mag, fz_vec_mag(ring[r][i]));
        }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double l = fz_len(fz_sub(p[j], p[i]));
            if (l > far)
                far = l, fi = i, fj = j;
        }
    if (!(far > 0))
        return 1;
    c2d_vec2 u = fz_sub(p[fj], p[fi]);
    for (int k = 0; k < n; k++) {
        c2d_vec2 w = fz_sub(p[k], p[fi]);
        if (fabs(u.x * w.y - u.y * w.x) / far > 8 * DBL_EPSILON * 2 * mag)
            return 0;
    }
    return 1;
}

/* Twice the signed area of a ring and its first moment (relative to its first point). */
static double fz_ring_area2(const c2d_vec2 *p, int n, c2d_vec2 *moment)
{
    double a2 = 0, mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
        c2d_vec2 a = fz_v(p[i].x - p[0].x, p[i].y - p[0].y);
        c2d_vec2 b = fz_v(p[(i + 1) % n].x - p[0].x, p[(i + 1) % n].y - p[0].y);
        double cr = a.x * b.y - a.y * b.x;
        a2 += cr;
        mx += (a.x + b.x) * cr;
        my += (a.y + b.y) * cr;
    }
    if (moment)
        *moment = fz_v(mx, my); /* 6 * area * (centroid - p[0]) */
    return a2;
}

static double fz_ring_perimeter(const c2d_vec2 *p, int n, int closed)
{
    double l = 0;
    for (int i = 0; i + (closed ? 0 : 1) < n; i++)
        l += hypot(p[(i + 1) % n].x - p[i].x, p[(i + 1) % n].y - p[i].y);
    return l;
}

/* A part of a concave polygon as placed: at least 3 vertices, counter-clockwise and convex (every
 * turn to the left, up to the rounding of each placed vertex, tol, or exactly; the turns adding up to
 * one full turn), and every vertex one of the points the polygon was made from (parts make no new
 * points). A part of subnormal points (valid since issue 22: a ring is refused only when exactly
 * degenerate) has products that underflow to 0, so its turns are measured on its edges scaled up by
 * a power of two, which changes no angle. */
static void fz_check_part_convex(const c2d_vec2 *v, int n, int k, double tol, const c2d_vec2 *const *ring,
                                 const int *cnt, int rings)
{
    FZ_CHECK(n >= 3, "part %d has %d vertices", k, n);
    double turning = 0, span = 0;
    for (int i = 0; i < n; i++)
        span = fmax(span, fz_vec_mag(fz_sub(v[(i + 1) % n], v[i])));
    int up = span > 0 && span < 1e-150 ? -ilogb(span) : 0;
    for (int i = 0; i < n; i++) {
        c2d_vec2 a = v[(i + n - 1) % n], b = v[i], c = v[(i + 1) % n];
        c2d_vec2 e1 = fz_sub(b, a), e2 = fz_sub(c, b);
        double cr = e1.x * e2.y - e1.y * e2.x;
        FZ_CHECK(cr > -2 * tol * (fz_len(e1) + fz_len(e2)) || fz_orient(a, b, c) > 0,
                 "part %d turns right at vertex %d (%.17g, %.17g): cross %.17g", k, i, b.x, b.y, cr);
        e1 = fz_v(ldexp(e1.x, up), ldexp(e1.y, up));
        e2 = fz_v(ldexp(e2.x, up), ldexp(e2.y, up));
        turning += atan2(e1.x * e2.y - e1.y * e2.x, e1.x * e2.x + e1.y * e2.y);
        double best = INFINITY;
        for (int r = 0; r < rings; r++)
            for (int j = 0; j < cnt[r]; j++)
                best = fmin(best, fz_len(fz_sub(b, ring[r][j])));
        FZ_CHECK(best <= tol, "part %d vertex %d (%.17g, %.17g) is %.17g from every input point", k, i, b.x, b.y,
                 best);
    }
    FZ_CHECK(fabs(turning - 6.283185307179586) < 0.5, "part %d turns %.17g in all, not once round", k, turning);
}

/* Whether the vertices v[0 .. m) are the deduplicated ring d[0 .. k), counter-clockwise from some
 * point on, with any of its straight-run middles (mid) left out: the header drops them, and keeping
 * them leaves the same outline. Matching is within tol (the vertices are placed copies). */
static int fz_outline_matches(const c2d_vec2 *v, int m, const c2d_vec2 *d, const unsigned char *mid, int k,
                              double tol)
{
    static unsigned char reach[FZ_MAX_VERTS + 1][FZ_RING_PTS + 1];
    if (m > FZ_MAX_VERTS || k > FZ_RING_PTS)
        return 0;
    for (int s = 0; s < k; s++) {
        if (fz_len(fz_sub(v[0], d[s])) > tol)
            continue;
        memset(reach, 0, sizeof reach);
        reach[0][0] = 1;
        for (int j = 0; j < k; j++)
            for (int i = 0; i <= m; i++) {
                if (!reach[i][j])
                    continue;
                int at = (s + j) % k;
                if (mid[at])
                    reach[i][j + 1] = 1;
                if (i < m && fz_len(fz_sub(v[i], d[at])) <= tol)
                    reach[i + 1][j + 1] = 1;
            }
        if (reach[m][k])
            return 1;
    }
    return 0;
}

/* What c2d_concave_new promises of a new concave polygon s made from the rings (all valid, the
 * shape still where it was made: angle 0): parts convex, counter-clockwise, made of input points,
 * with areas adding up to the region's (outline minus holes); the outline as its vertices; the
 * centroid of the area as its position; every input point on its boundary. */
static void fz_check_concave_new(const c2d_shape *s, const c2d_vec2 *const *ring, const int *cnt, int rings)
{
    double mag = 1;
    for (int r = 0; r < rings; r++)
        for (int i = 0; i < cnt[r]; i++)
            mag = fmax(mag, fz_vec_mag(ring[r][i]));
    double scale = fmax(mag, fz_shape_scale(s)), tol = FZ_REL_TOL * scale;
    int parts = fz_part_count(s);
    FZ_CHECK(c2d_shape_get_type(s) == C2D_SHAPE_CONCAVE && parts >= 1, "concave: type %d, %d parts",
             (int)c2d_shape_get_type(s), parts);
    double sum = 0;
    for (int k = 0; k < parts; k++) {
        c2d_vec2 v[FZ_MAX_VERTS];
        int n = 0;
        fz_part(s, k, v, FZ_MAX_VERTS, &n);
        fz_check_part_convex(v, n, k, tol, ring, cnt, rings);
        sum += 0.5 * fz_ring_area2(v, n, NULL);
    }
    /* The region: the outline's area less the holes' (each ring either way round), its moment too. */
    double area = 0, perimeter = 0;
    c2d_vec2 moment = fz_v(0, 0), o = ring[0][0];
    for (int r = 0; r < rings; r++) {
        c2d_vec2 mo;
        double a2 = fz_ring_area2(ring[r], cnt[r], &mo), sign = (r == 0) == (a2 > 0) ? 1 : -1;
        area += sign * 0.5 * a2;
        /* the ring's moment about o: 6 A (c - p0) + 6 A (p0 - o) */
        moment.x += sign * (mo.x + 3 * a2 * (ring[r][0].x - o.x));
        moment.y += sign * (mo.y + 3 * a2 * (ring[r][0].y - o.y));
        perimeter += fz_ring_perimeter(ring[r], cnt[r], 1);
    }
    /* Each part's vertices stand within the rounding of placing it (1e-9 of the scene here) of the
     * input points, so the areas agree to that times the boundary's length, and 1e-9 relatively. */
    double atol = 1e-9 * fabs(area) + 2 * tol * perimeter;
    FZ_CHECK(fabs(sum - area) <= atol, "parts' areas add up to %.17g, the region's is %.17g (tol %g)", sum, area,
             atol);
    /* The centroid, which moves by the extent times the area's error over the area. */
    c2d_vec2 pos;
    c2d_shape_get_position(s, &pos);
    c2d_aabb box;
    c2d_shape_get_aabb(s, &box);
    double extent = fmax(box.max.x - box.min.x, box.max.y - box.min.y);
    if (area > 0) {
        c2d_vec2 want = fz_v(o.x + moment.x / (6 * area), o.y + moment.y / (6 * area));
        double ctol = tol + extent * atol / area;
        FZ_CHECK(fz_len(fz_sub(pos, want)) <= ctol, "position (%.17g, %.17g), the centroid is (%.17g, %.17g)", pos.x,
                 pos.y, want.x, want.y);
    }
    /* The vertices: the outline without repeats, counter-clockwise (decided exactly, at the
     * lowest-leftmost point that is no straight-run middle), with or without its middles. */
    c2d_vec2 d[FZ_RING_PTS], v[FZ_MAX_VERTS];
    unsigned char mid[FZ_RING_PTS];
    int k = fz_ring_dedupe(ring[0], cnt[0], d), m = 0;
    FZ_CHECK(fz_ring_middles(d, k, mid), "an accepted outline doubles back");
    int low = -1;
    for (int i = 0; i < k; i++)
        if (!mid[i] && (low < 0 || d[i].x < d[low].x || (d[i].x == d[low].x && d[i].y < d[low].y)))
            low = i;
    int prev = low, next = low;
    do
        prev = (prev + k - 1) % k;
    while (mid[prev]);
    do
        next = (next + 1) % k;
    while (mid[next]);
    if (fz_orient(d[prev], d[low], d[next]) < 0)
        for (int i = 0, j = k - 1; i < j; i++, j--) {
            c2d_vec2 t = d[i];
            unsigned char u = mid[i];
            d[i] = d[j];
            d[j] = t;
            mid[i] = mid[j];
            mid[j] = u;
        }
    c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &m);
    FZ_CHECK(fz_outline_matches(v, m, d, mid, k, tol),
             "the %d vertices are not the outline of %d points counter-clockwise (first (%.17g, %.17g))", m, k,
             v[0].x, v[0].y);
    c2d_vec2 pos0;
    c2d_shape_get_position(s, &pos0);
    for (int r = 0; r < rings && (fz_strict_misc || !fz_rings_narrow(ring, cnt, rings, pos0)); r++)
        for (int i = 0; i < cnt[r]; i++) {
            double sd = fz_sd(s, ring[r][i]);
            FZ_CHECK(fabs(sd) <= tol, "input point %d of ring %d (%.17g, %.17g) is %.17g from the boundary", i, r,
                     ring[r][i].x, ring[r][i].y, sd);
        }
}

/* Whether a concave polygon's rings come closer to themselves than the tolerance up to which its parts'
 * edges join (1e-9 of its size; 4e-9 here, for the rounding): two edges that are not neighbours, or
 * neighbours whose far ends are that close to the other (a spike or notch that thin). Its parts'
 * edges there are taken for joints (known, FZ_STRICT_MISC). */
static int fz_rings_narrow(const c2d_vec2 *const *ring, const int *cnt, int rings, c2d_vec2 pos)
{
    c2d_vec2 d[1 + FZ_HOLES][FZ_RING_PTS];
    int k[1 + FZ_HOLES];
    double ext = 0;
    for (int r = 0; r < rings; r++) {
        k[r] = fz_ring_dedupe(ring[r], cnt[r], d[r]);
        for (int i = 0; i < k[r]; i++)
            ext = fmax(ext, fz_vec_mag(fz_sub(d[r][i], pos)));
    }
    double tol = 4e-9 * (1 + ext);
    for (int r = 0; r < rings; r++)
        for (int i = 0; i < k[r]; i++) {
            c2d_vec2 a = d[r][i], b = d[r][(i + 1) % k[r]];
            for (int q = r; q < rings; q++)
                for (int j = q == r ? i + 1 : 0; j < k[q]; j++) {
                    c2d_vec2 c = d[q][j], e = d[q][(j + 1) % k[q]];
                    double m;
                    if (q == r && j == i + 1) /* neighbours at b: a's and e's distance to the other edge */
                        m = fmin(fz_len(fz_sub(a, fz_seg_closest(c, e, a))), fz_len(fz_sub(e, fz_seg_closest(a, b, e))));
                    else if (q == r && i == 0 && j == k[r] - 1) /* neighbours at a */
                        m = fmin(fz_len(fz_sub(b, fz_seg_closest(c, e, b))), fz_len(fz_sub(c, fz_seg_closest(a, b, c))));
                    else
                        m = fmin(fmin(fz_len(fz_sub(a, fz_seg_closest(c, e, a))), fz_len(fz_sub(b, fz_seg_closest(c, e, b)))),
                                 fmin(fz_len(fz_sub(c, fz_seg_closest(a, b, c))), fz_len(fz_sub(e, fz_seg_closest(a, b, e)))));
                    if (m < tol)
                        return 1;
                }
        }
    return 0;
}

/* Stores a compound's model with its slot (after fz_created put it there). */
static void fz_model_set(fz_state *st, int slot, int kind, int closed, int one_sided, const c2d_vec2 *const *ring,
                         const int *cnt, int rings)
{
    fz_model *m = &st->model[slot];
    memset(m, 0, sizeof *m);
    m->kind = kind;
    m->closed = closed;
    m->one_sided = one_sided;
    m->rings = rings;
    for (int r = 0; r < rings; r++) {
        m->cnt[r] = cnt[r];
        memcpy(m->p[r], ring[r], (size_t)cnt[r] * sizeof ring[r][0]);
    }
    c2d_shape_get_position(st->slot[slot], &m->pos0);
    m->narrow = kind == C2D_SHAPE_CONCAVE && fz_rings_narrow(ring, cnt, rings, m->pos0);
}

/* c2d_concave_new from the input: an outline (fz_gen_ring) with 0 to 3 holes inside it, outside it,
 * centred on one of its points, or touching it at one, and the bad arguments (NULL outline or hole
 * array or hole pointer, counts out of range or too many points in all). The status must be one the
 * header names for what is wrong (fz_concave_expect for the geometry); rejected, *out is untouched;
 * accepted, fz_check_concave_new, and the slot keeps the rings as its model. */
static void op_concave(fz_state *st)
{
    int slot = fz_slot(st);
    uint8_t mode = fz_byte(st);
    c2d_vec2 c = fz_vec(st);
    double r = fz_number(st);
    static c2d_vec2 outline[FZ_RING_PTS], holes[FZ_HOLES][FZ_RING_PTS];
    memset(holes, 0, sizeof holes);
    int n = fz_gen_ring(st, outline, FZ_RING_PTS, 3, c, r);
    int hc = (mode >> 3) & 3, hn[FZ_HOLES] = {0, 0, 0};
    static const double inside[4][2] = {{0, 0}, {0.35, 0}, {-0.35, 0.2}, {0, -0.35}};
    for (int h = 0; h < hc; h++) {
        uint8_t hp = fz_byte(st), j = fz_byte(st);
        if (n == 0) /* a copy of an empty slot: nothing to place the hole by */
            outline[0] = c;
        int nn = n > 0 ? n : 1;
        c2d_vec2 at = c, v = outline[j % nn];
        double hr = r * 0.15 * (1 + ((hp >> 4) & 3));
        switch (hp & 3) {
        case 0:
            at = fz_v(c.x + r * inside[(hp >> 2) & 3][0], c.y + r * inside[(hp >> 2) & 3][1]);
            break;
        case 1:
            at = fz_v(c.x + 4 * r, c.y);
            break;
        case 2:
            at = v;
            break;
        default:
            at = fz_v(0.5 * (v.x + outline[(j + 1) % nn].x), 0.5 * (v.y + outline[(j + 1) % nn].y));
            break;
        }
        hn[h] = fz_gen_ring(st, holes[h], FZ_HOLE_PTS, 3, at, hr);
        if ((hp & 0x40) && hn[h] > 0)
            holes[h][0] = outline[(j >> 4) % nn]; /* touching the outline at one of its points */
    }
    /* The arguments as passed, and what is wrong with them. */
    const c2d_vec2 *ptrs[FZ_HOLES] = {holes[0], holes[1], holes[2]};
    int counts[FZ_HOLES] = {hn[0], hn[1], hn[2]};
    const c2d_vec2 *pass_outline = outline;
    const c2d_vec2 *const *pass_holes = hc > 0 ? ptrs : NULL;
    const int *pass_counts = hc > 0 ? counts : NULL;
    int pass_n = n, pass_hc = hc;
    uint8_t sub = (mode & 7) >= 4 ? fz_byte(st) : 0;
    switch (mode & 7) {
    case 4:
        pass_outline = NULL;
        break;
    case 5:
        pass_n = sub & 1 ? -1 : sub & 2 ? INT_MIN : C2D_MAX_POLYGON_POINTS + 1;
        break;
    case 6:
        if (pass_hc == 0)
            pass_hc = 1, pass_holes = ptrs, pass_counts = counts, counts[0] = 0;
        switch (sub % 4) {
        case 0: pass_hc = -1; break;
        case 1: pass_hc = C2D_MAX_POLYGON_POINTS + 1; break;
        case 2: pass_holes = NULL; break;
        default: pass_counts = NULL; break;
        }
        break;
    case 7:
        if (pass_hc == 0)
            pass_hc = 1, pass_holes = ptrs, pass_counts = counts, counts[0] = 0;
        switch (sub % 3) {
        case 0: ptrs[sub % pass_hc] = NULL; break;
        case 1: counts[sub % pass_hc] = -1; break;
        default: counts[sub % pass_hc] = C2D_MAX_POLYGON_POINTS - n + 1; break; /* too many in all */
        }
        break;
    default:
        break;
    }
    if (fz_trace)
        fprintf(stderr, " n %d holes %d variant %d", pass_n, pass_hc, mode & 7);
    unsigned pre = 0;
    if (!pass_outline)
        pre |= FZ_BIT(C2D_ERR_NULL);
    if (pass_hc < 0 || pass_hc > C2D_MAX_POLYGON_POINTS)
        pre |= FZ_BIT(C2D_ERR_RANGE);
    if (pass_hc > 0 && (!pass_holes || !pass_counts))
        pre |= FZ_BIT(C2D_ERR_NULL);
    int holes_known = pass_hc >= 0 && pass_hc <= FZ_HOLES;
    for (int h = 0; holes_known && pass_holes && h < pass_hc; h++)
        if (!pass_holes[h])
            pre |= FZ_BIT(C2D_ERR_NULL);
    if (pass_n < 0 || pass_n > C2D_MAX_POLYGON_POINTS)
        pre |= FZ_BIT(C2D_ERR_RANGE);
    long total = pass_n;
    for (int h = 0; holes_known && pass_counts && h < pass_hc; h++) {
        if (pass_counts[h] < 0)
            pre |= FZ_BIT(C2D_ERR_RANGE);
        total += pass_counts[h];
    }
    if (total > C2D_MAX_POLYGON_POINTS)
        pre |= FZ_BIT(C2D_ERR_RANGE);
    if (pass_outline && pass_n >= 0 && pass_n <= FZ_RING_PTS)
        pre |= fz_points_errors(pass_outline, pass_n);
    for (int h = 0; holes_known && pass_holes && pass_counts && h < pass_hc; h++)
        if (pass_holes[h] && pass_counts[h] >= 0 && pass_counts[h] <= FZ_RING_PTS)
            pre |= fz_points_errors(pass_holes[h], pass_counts[h]);
    const c2d_vec2 *rings[1 + FZ_HOLES] = {outline, holes[0], holes[1], holes[2]};
    int cnt[1 + FZ_HOLES] = {n, counts[0], counts[1], counts[2]};
    unsigned allowed = pre ? pre : fz_concave_expect(rings, cnt, 1 + pass_hc);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_concave_new(pass_outline, pass_n, pass_holes, pass_counts, pass_hc, &out);
    fz_check_status_concave(s);
    /* Valid rings within rounding of one line, measured from their centroid: every part may round
     * flat, and the header then gives DEGENERATE. */
    if (s == C2D_ERR_DEGENERATE && (allowed & FZ_BIT(C2D_OK)) && fz_rings_flat(rings, cnt, 1 + pass_hc))
        allowed |= FZ_BIT(C2D_ERR_DEGENERATE);
    if (fz_trace)
        fprintf(stderr, " -> status %d (allowed 0x%x)", (int)s, allowed);
    FZ_CHECK(allowed & FZ_BIT(s), "c2d_concave_new gave %d (%s); allowed: mask 0x%x", (int)s, c2d_status_string(s),
             allowed);
    if (mode & 0x20) {
        /* With out NULL: refused, with NULL or another of the statuses that fit. */
        c2d_status s2 = c2d_concave_new(pass_outline, pass_n, pass_holes, pass_counts, pass_hc, NULL);
        FZ_CHECK(s2 != C2D_OK && ((pre | FZ_BIT(C2D_ERR_NULL)) & FZ_BIT(s2)), "concave_new to NULL gave %d", (int)s2);
    }
    if (s != C2D_OK) {
        FZ_CHECK(out == fz_sentinel(), "rejected concave_new wrote *out");
        return;
    }
    fz_created(st, slot, s, 1, out, fz_sentinel());
    fz_check_concave_new(out, rings, cnt, 1 + pass_hc);
    fz_model_set(st, slot, C2D_SHAPE_CONCAVE, 1, 0, rings, cnt, 1 + pass_hc);
}

/* c2d_chain_new from the input: points from fz_gen_ring (1 to 24 of them, or none), open or closed,
 * one-sided or not, and the bad arguments (NULL points, counts and flags out of range). Accepted: the
 * repeated consecutive points dropped (and a closed chain's last point equal to its first), one
 * segment per pair of neighbours, the points as vertices in order, the centre of their box as its
 * position. */
static void op_chain(fz_state *st)
{
    int slot = fz_slot(st);
    uint8_t mode = fz_byte(st);
    c2d_vec2 c = fz_vec(st);
    double r = fz_number(st);
    static c2d_vec2 pts[FZ_RING_PTS];
    int n = fz_gen_ring(st, pts, FZ_RING_PTS, 1, c, r);
    int flags = mode & 3, variant = (mode >> 2) & 7, pass_n = n;
    const c2d_vec2 *pass = pts;
    uint8_t sub = variant >= 5 ? fz_byte(st) : 0;
    if (variant == 5)
        pass = NULL;
    else if (variant == 6)
        pass_n = sub % 3 == 0 ? -1 : sub % 3 == 1 ? C2D_MAX_POLYGON_POINTS + 1 : (int)(sub % 3 == 2 ? (sub >> 2) % 3 : 0);
    else if (variant == 7) {
        static const int bad[4] = {4, 8, -1, INT_MIN};
        flags |= bad[sub % 4];
    }
    if (fz_trace)
        fprintf(stderr, " n %d flags %d variant %d", pass_n, flags, variant);
    unsigned pre = 0;
    if (!pass)
        pre |= FZ_BIT(C2D_ERR_NULL);
    if (pass_n < 0 || pass_n > C2D_MAX_POLYGON_POINTS || (flags & ~(C2D_CHAIN_CLOSED | C2D_CHAIN_ONE_SIDED)))
        pre |= FZ_BIT(C2D_ERR_RANGE);
    if (pass && pass_n >= 0 && pass_n <= FZ_RING_PTS)
        pre |= fz_points_errors(pass, pass_n);
    int closed = (flags & C2D_CHAIN_CLOSED) != 0, need = closed ? 3 : 2;
    c2d_vec2 d[FZ_RING_PTS];
    int m = 0, distinct = 0;
    for (int i = 0; pass && i < pass_n && pass_n <= FZ_RING_PTS; i++) {
        if (m == 0 || !fz_veq(pts[i], d[m - 1]))
            d[m++] = pts[i];
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = fz_veq(pts[j], pts[i]);
        distinct += !seen;
    }
    if (closed)
        while (m > 1 && fz_veq(d[m - 1], d[0]))
            m--;
    /* Fewer points left than a chain needs: DEGENERATE. The header says "distinct points", and a
     * closed chain such as A, B, A, B has 4 points left but 2 distinct ones: either answer is taken
     * there (the README's notes say why). */
    unsigned allowed = pre ? pre
                       : m < need ? FZ_BIT(C2D_ERR_DEGENERATE)
                       : distinct < need ? FZ_BIT(C2D_ERR_DEGENERATE) | FZ_BIT(C2D_OK)
                                         : FZ_BIT(C2D_OK) | FZ_BIT(C2D_ERR_NO_MEMORY);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_chain_new(pass, pass_n, flags, &out);
    fz_check_status(s);
    /* Two neighbours closer than 1e-12 of the scene: measured from the chain's position they may
     * round to one point, and the segment between them is refused as DEGENERATE (known,
     * FZ_STRICT_MISC). */
    if (s == C2D_ERR_DEGENERATE && (allowed & FZ_BIT(C2D_OK)) && !fz_strict_misc) {
        double mag = 1, gap = INFINITY;
        for (int i = 0; i < m; i++)
            mag = fmax(mag, fz_vec_mag(d[i]));
        for (int i = 0; i + (closed ? 0 : 1) < m; i++)
            gap = fmin(gap, fz_len(fz_sub(d[(i + 1) % m], d[i])));
        if (gap <= 1e-12 * mag)
            allowed |= FZ_BIT(C2D_ERR_DEGENERATE);
    }
    if (fz_trace)
        fprintf(stderr, " -> status %d (allowed 0x%x)", (int)s, allowed);
    FZ_CHECK(allowed & FZ_BIT(s), "c2d_chain_new gave %d (%s); allowed: mask 0x%x", (int)s, c2d_status_string(s),
             allowed);
    if (mode & 0x20) {
        c2d_status s2 = c2d_chain_new(pass, pass_n, flags, NULL);
        FZ_CHECK(s2 != C2D_OK && ((pre | FZ_BIT(C2D_ERR_NULL)) & FZ_BIT(s2)), "chain_new to NULL gave %d", (int)s2);
    }
    if (s != C2D_OK) {
        FZ_CHECK(out == fz_sentinel(), "rejected chain_new wrote *out");
        return;
    }
    fz_created(st, slot, s, 1, out, fz_sentinel());
    n = pass_n; /* accepted: the count passed is valid, and at most the points made */
    double mag = 1;
    for (int i = 0; i < n; i++)
        mag = fmax(mag, fz_vec_mag(pts[i]));
    double tol = FZ_REL_TOL * fmax(mag, fz_shape_scale(out));
    int parts = fz_part_count(out), count = 0;
    c2d_vec2 v[FZ_MAX_VERTS];
    c2d_shape_get_vertices(out, v, FZ_MAX_VERTS, &count);
    /* Points a rounding apart may become one once measured from the chain's position: fewer vertices,
     * each within the tolerance of a point, and the segments between them. */
    FZ_CHECK(c2d_shape_get_type(out) == C2D_SHAPE_CHAIN && count <= m && count >= (closed ? 3 : 2) &&
                 parts == (closed ? count : count - 1),
             "chain of %d points left (closed %d): type %d, %d vertices, %d parts", m, closed,
             (int)c2d_shape_get_type(out), count, parts);
    c2d_vec2 lo = d[0], hi = d[0];
    for (int i = 0; i < m; i++) {
        if (count == m)
            FZ_CHECK(fz_len(fz_sub(v[i], d[i])) <= tol, "chain vertex %d (%.17g, %.17g) is not point (%.17g, %.17g)",
                     i, v[i].x, v[i].y, d[i].x, d[i].y);
        lo = fz_v(fmin(lo.x, d[i].x), fmin(lo.y, d[i].y));
        hi = fz_v(fmax(hi.x, d[i].x), fmax(hi.y, d[i].y));
    }
    for (int k = 0; k < parts && count == m; k++) {
        c2d_vec2 pv[2];
        int pn = 0;
        fz_part(out, k, pv, 2, &pn);
        FZ_CHECK(pn == 2 && fz_len(fz_sub(pv[0], d[k])) <= tol && fz_len(fz_sub(pv[1], d[(k + 1) % m])) <= tol,
                 "chain part %d is not the segment from point %d to the next", k, k);
    }
    c2d_vec2 pos;
    c2d_shape_get_position(out, &pos);
    FZ_CHECK(fz_len(fz_sub(pos, fz_v(0.5 * lo.x + 0.5 * hi.x, 0.5 * lo.y + 0.5 * hi.y))) <= tol,
             "chain position (%.17g, %.17g) is not the centre of its points' box", pos.x, pos.y);
    const c2d_vec2 *rings[1] = {pts};
    int cnt[1] = {n};
    fz_model_set(st, slot, C2D_SHAPE_CHAIN, closed, (flags & C2D_CHAIN_ONE_SIDED) != 0, rings, cnt, 1);
}


/* ---- chains and concave polygons: queries against the rings they were made from ---------------- */

/* The scene's size for a model check: the shape, its placed rings and the points involved. */
static double fz_model_scale(const fz_model *m, fz_rings w, const c2d_shape *s, c2d_vec2 p)
{
    return fmax(fmax(fz_shape_scale(s), fz_model_mag(m, w)), fz_vec_mag(p));
}

/* contains_point and closest_point of slot k's compound at p, against its rings as placed now: a
 * point farther than the tolerance from every ring edge is inside exactly when the even-odd count
 * says so (a chain contains no such point); the signed distance is the brute-force distance to the
 * nearest ring edge (negative inside); the nearest point lies on a ring edge. */
static void fz_check_model_point(const fz_state *st, int k, c2d_vec2 p)
{
    const fz_model *m = &st->model[k];
    const c2d_shape *s = st->slot[k];
    if (!m->kind || !s || !fz_ok_vec(p) || (m->narrow && !fz_strict_misc))
        return;
    fz_rings w;
    fz_model_place(m, s, w);
    c2d_vec2 near;
    double sdm = fz_model_sd(m, w, p, &near), tol = FZ_REL_TOL * fz_model_scale(m, w, s, p);
    int in = -1;
    c2d_vec2 q = fz_v(0, 0);
    double sd = NAN;
    FZ_CHECK(c2d_contains_point(s, p, &in) == C2D_OK && c2d_closest_point(s, p, &q, &sd) == C2D_OK,
             "point query on a compound failed");
    if (fabs(sdm) > tol)
        FZ_CHECK(in == (sdm < 0), "(%.17g, %.17g) is %.17g from the rings (even-odd: %s) but contains says %d", p.x,
                 p.y, sdm, sdm < 0 ? "inside" : "outside", in);
    FZ_CHECK(fabs(sd - sdm) <= tol,
             "closest_point from (%.17g, %.17g): signed distance %.17g, the rings' %.17g (nearest (%.17g, %.17g), tol %g)",
             p.x, p.y, sd, sdm, near.x, near.y, tol);
    if (fz_ok_vec(q)) {
        double dq = fz_model_sd(m, w, q, NULL);
        FZ_CHECK(fabs(dq) <= tol, "closest point (%.17g, %.17g) is %.17g off the rings", q.x, q.y, dq);
    }
}

/* A ray against slot k's compound, against its rings as placed now: a hit at t > 0 lies on a ring
 * edge, one at t = 0 starts inside or on the rings; a miss starts outside a concave polygon; sampled
 * points of the ray before the hit (or up to max_t, or well past the shape, for a miss) are not inside
 * the region; and the ray crosses no ring edge clearly (both its ends farther than the tolerance from
 * the ray's line, on opposite sides) before the hit, or anywhere up to max_t when it missed. A ray
 * along an edge or grazing a corner is left to rounding, as the header says. */
static void fz_check_model_ray(const fz_state *st, int k, c2d_vec2 o, c2d_vec2 d, double max_t, const c2d_ray_hit *h)
{
    const fz_model *m = &st->model[k];
    const c2d_shape *s = st->slot[k];
    double len = fz_len(d);
    if (!m->kind || !s || !(len > 0) || !isfinite(len) || !fz_ok_vec(o) || (m->narrow && !fz_strict_misc))
        return;
    fz_rings w;
    fz_model_place(m, s, w);
    double end_t = h->t;
    if (!h->hit) {
        c2d_aabb b;
        c2d_shape_get_aabb(s, &b);
        double reach = 2 * (fz_len(fz_sub(b.min, o)) + fz_len(fz_sub(b.max, o))) / len;
        end_t = fmin(max_t, reach);
    }
    c2d_vec2 end = fz_v(o.x + end_t * d.x, o.y + end_t * d.y);
    if (!fz_finite_vec(end))
        return;
    double scale = fmax(fz_model_scale(m, w, s, o), fz_vec_mag(end)), tol = FZ_REL_TOL * scale;
    /* A scene wholly below DBL_MIN / DBL_EPSILON loses the bits these bounds assume (as for the aimed
     * rays). */
    if (scale < DBL_MIN / DBL_EPSILON)
        return;
    double sd0 = fz_model_sd(m, w, o, NULL);
    if (h->hit && h->t > 0) {
        double sdh = fz_model_sd(m, w, h->point, NULL);
        FZ_CHECK(fabs(sdh) <= tol, "ray hit (%.17g, %.17g) at t %.17g is %.17g off the rings (tol %g)", h->point.x,
                 h->point.y, h->t, sdh, tol);
    } else if (h->hit) {
        FZ_CHECK(sd0 <= tol, "ray hit at t = 0 but the origin is %.17g outside the rings", sd0);
        return;
    } else {
        FZ_CHECK(sd0 >= -tol, "the ray missed but its origin is %.17g inside the rings", -sd0);
    }
    for (int j = 1; j < 8 && m->kind == C2D_SHAPE_CONCAVE; j++) {
        double u = end_t * j / 8.0;
        c2d_vec2 q = fz_v(o.x + u * d.x, o.y + u * d.y);
        double sq = fz_model_sd(m, w, q, NULL);
        FZ_CHECK(sq >= -tol, "the ray is %.17g inside the rings at t %.17g, before its %s at t %.17g", -sq, u,
                 h->hit ? "hit" : "end", end_t);
    }
    c2d_vec2 u = fz_v(d.x / len, d.y / len);
    double stop = end_t * len;
    for (int r = 0; r < m->rings; r++)
        for (int i = 0; i < fz_model_edges(m, r); i++) {
            c2d_vec2 a = w[r][i], b = w[r][(i + 1) % m->cnt[r]];
            double sa = u.x * (a.y - o.y) - u.y * (a.x - o.x), sb = u.x * (b.y - o.y) - u.y * (b.x - o.x);
            if (!((sa > tol && sb < -tol) || (sa < -tol && sb > tol)))
                continue;
            double f = sa / (sa - sb);
            c2d_vec2 x = fz_v(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y));
            double along = (x.x - o.x) * u.x + (x.y - o.y) * u.y;
            double margin = tol * (2 + fz_len(fz_sub(b, a)) / (fabs(sa) + fabs(sb)));
            FZ_CHECK(!(along > margin && along < stop - margin),
                     "the ray crosses edge %d of ring %d at %.17g along it, before its %s at %.17g (margin %g)", i, r,
                     along, h->hit ? "hit" : "end", stop, margin);
        }
}

/* A ray from a point near one of a slot's rings (a vertex or a point of an edge, moved off it by a
 * fuzzed amount), then the point checks there and a ray from it: along a fuzzed direction, towards
 * another point of the rings, or along an edge. Only slots holding a chain or concave polygon. */
static void op_ring_point(fz_state *st)
{
    int k = fz_slot(st);
    uint8_t mode = fz_byte(st), a = fz_byte(st), b = fz_byte(st);
    c2d_vec2 off = fz_vec(st), d = fz_vec(st);
    double f = fz_number(st), max_t = mode & 0x40 ? fz_number(st) : INFINITY;
    const fz_model *m = &st->model[k];
    c2d_shape *s = st->slot[k];
    if (!m->kind || !s)
        return;
    fz_rings w;
    fz_model_place(m, s, w);
    int r = a % m->rings;
    if (m->cnt[r] == 0)
        return;
    c2d_vec2 v0 = w[r][(a >> 2) % m->cnt[r]], v1 = w[r][((a >> 2) + 1) % m->cnt[r]];
    c2d_vec2 p = v0;
    double g = isfinite(f) ? fabs(fmod(f, 1.0)) : 0.5;
    switch (mode & 3) {
    case 0: /* off a vertex by off * 2^-e */
        p = fz_v(v0.x + ldexp(off.x, -(b & 63)), v0.y + ldexp(off.y, -(b & 63)));
        break;
    case 1: /* off a point of an edge, across it by f times 2^-e of its length */
        p = fz_v(v0.x + g * (v1.x - v0.x), v0.y + g * (v1.y - v0.y));
        p = fz_v(p.x - ldexp(f, -(b & 63)) * (v1.y - v0.y), p.y + ldexp(f, -(b & 63)) * (v1.x - v0.x));
        break;
    case 2: { /* between two points of the rings */
        int r2 = b % m->rings;
        if (m->cnt[r2] == 0)
            return;
        c2d_vec2 q = w[r2][(b >> 2) % m->cnt[r2]];
        p = fz_v(v0.x + g * (q.x - v0.x), v0.y + g * (q.y - v0.y));
        break;
    }
    default:
        p = fz_v(v0.x + off.x, v0.y + off.y);
        break;
    }
    if (!fz_ok_vec(p))
        return;
    if (fz_trace)
        fprintf(stderr, " at (%.17g, %.17g)", p.x, p.y);
    fz_check_model_point(st, k, p);
    switch ((mode >> 2) & 3) {
    case 0:
        break;
    case 1: { /* towards a point of the rings */
        int r2 = b % m->rings;
        if (m->cnt[r2] == 0)
            return;
        c2d_vec2 q = w[r2][(b >> 2) % m->cnt[r2]];
        d = fz_sub(q, p);
        break;
    }
    case 2: /* along the edge */
        d = fz_sub(v1, v0);
        break;
    default: /* towards the point of the edge */
        d = fz_sub(fz_v(v0.x + g * (v1.x - v0.x), v0.y + g * (v1.y - v0.y)), p);
        break;
    }
    if (!fz_ok_vec(d) || (d.x == 0 && d.y == 0) || isnan(max_t) || max_t < 0)
        return;
    c2d_ray_hit h;
    FZ_CHECK(c2d_raycast(s, p, d, max_t, &h) == C2D_OK, "ray from near the rings rejected");
    if (fz_trace)
        fprintf(stderr, " ray (%.17g, %.17g) -> hit %d t %.17g (%.17g, %.17g)", d.x, d.y, h.hit, h.t, h.point.x,
                h.point.y);
    fz_check_ray(s, p, d, max_t, &h);
    if (!h.hit)
        fz_check_miss(s, p, d, max_t);
    fz_check_model_ray(st, k, p, d, max_t, &h);
}

/* Slot k's compound (concave) and a point of slot j's shape: a vertex (and the position of a convex
 * kind) that is inside the rings by more than the tolerance is a witness that the two overlap. */
static void fz_check_model_witness(const fz_state *st, int k, int j)
{
    const fz_model *m = &st->model[k];
    const c2d_shape *s = st->slot[k], *t = st->slot[j];
    if (m->kind != C2D_SHAPE_CONCAVE || !s || !t || (m->narrow && !fz_strict_misc))
        return;
    fz_rings w;
    fz_model_place(m, s, w);
    c2d_vec2 v[FZ_MAX_VERTS + 1];
    int n = 0;
    if (c2d_shape_get_vertices(t, v, FZ_MAX_VERTS, &n) != C2D_OK)
        return;
    if (!fz_is_compound(t))
        c2d_shape_get_position(t, &v[n++]);
    for (int i = 0; i < n; i++) {
        double tol = FZ_REL_TOL * fmax(fz_model_scale(m, w, s, v[i]), fz_shape_scale(t));
        double sd = fz_model_sd(m, w, v[i], NULL);
        if (!(sd < -tol))
            continue;
        int o1 = -1, o2 = -1;
        c2d_overlap(s, t, &o1);
        c2d_overlap(t, s, &o2);
        FZ_CHECK(o1 == 1 && o2 == 1,
                 "point %d (%.17g, %.17g) of slot %d is %.17g inside slot %d's rings, but overlap %d/%d", i, v[i].x,
                 v[i].y, j, -sd, k, o1, o2);
        return;
    }
}

/* Slot k's concave polygon and slot j's segment: when the rings say the segment does not enter the
 * region (its ends and 15 points between them not inside by more than the tolerance, and no ring edge
 * crossing it clearly), the two have no depth: contacts both ways at most the tolerance deep, and the
 * distance no less than minus it. A segment touching a ring's corner is left out unless
 * FZ_STRICT_COMPOUND_TOUCH=1 (known bug: at a corner where parts meet it gets a depth). */
static void fz_check_model_segment(const fz_state *st, int k, int j)
{
    const fz_model *m = &st->model[k];
    const c2d_shape *s = st->slot[k], *t = st->slot[j];
    if (m->kind != C2D_SHAPE_CONCAVE || !s || !t || c2d_shape_get_type(t) != C2D_SHAPE_SEGMENT ||
        (m->narrow && !fz_strict_misc))
        return;
    c2d_vec2 v[2];
    int n = 0;
    c2d_shape_get_vertices(t, v, 2, &n);
    fz_rings w;
    fz_model_place(m, s, w);
    double tol = FZ_REL_TOL * fmax(fz_model_scale(m, w, s, v[0]), fz_vec_mag(v[1]));
    double len = fz_len(fz_sub(v[1], v[0]));
    if (!(len > 0) || !isfinite(len) || tol < DBL_MIN / DBL_EPSILON)
        return;
    for (int i = 0; i <= 16; i++) {
        c2d_vec2 q = fz_v(v[0].x + (v[1].x - v[0].x) * i / 16.0, v[0].y + (v[1].y - v[0].y) * i / 16.0);
        if (fz_model_sd(m, w, q, NULL) < -tol)
            return; /* inside: nothing claimed here */
    }
    c2d_vec2 u = fz_v((v[1].x - v[0].x) / len, (v[1].y - v[0].y) / len);
    for (int r = 0; r < m->rings; r++)
        for (int i = 0; i < m->cnt[r]; i++) {
            c2d_vec2 a = w[r][i], b = w[r][(i + 1) % m->cnt[r]];
            if (!fz_strict_touch && fz_len(fz_sub(a, fz_seg_closest(v[0], v[1], a))) <= tol)
                return; /* the segment touches a corner of the rings */
            double sa = u.x * (a.y - v[0].y) - u.y * (a.x - v[0].x), sb = u.x * (b.y - v[0].y) - u.y * (b.x - v[0].x);
            if (!((sa > tol && sb < -tol) || (sa < -tol && sb > tol)))
                continue;
            double f = sa / (sa - sb);
            c2d_vec2 x = fz_v(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y));
            double along = (x.x - v[0].x) * u.x + (x.y - v[0].y) * u.y;
            double margin = tol * (2 + fz_len(fz_sub(b, a)) / (fabs(sa) + fabs(sb)));
            if (along > margin && along < len - margin)
                return; /* a ring edge crosses it */
        }
    c2d_contact c1, c2;
    c2d_distance_result d;
    FZ_CHECK(c2d_collide(s, t, &c1) == C2D_OK && c2d_collide(t, s, &c2) == C2D_OK && c2d_distance(s, t, &d) == C2D_OK,
             "pair query failed");
    FZ_CHECK(c1.depth <= 4 * tol && c2.depth <= 4 * tol && d.distance >= -4 * tol,
             "segment (%.17g, %.17g)-(%.17g, %.17g) does not enter the rings, but contact depths %.17g/%.17g, distance "
             "%.17g",
             v[0].x, v[0].y, v[1].x, v[1].y, c1.depth, c2.depth, d.distance);
}

/* Every pair check on two slots, then the witnesses of their rings. */
static void fz_check_slots(fz_state *st, int i, int j)
{
    fz_check_pair(st->slot[i], st->slot[j]);
    fz_check_model_witness(st, i, j);
    fz_check_model_witness(st, j, i);
    fz_check_model_segment(st, i, j);
    fz_check_model_segment(st, j, i);
}

/* A compound placed near the edge of the coordinate range (1e15 less a fuzzed amount, or one ulp
 * past it: C2D_ERR_RANGE, changing nothing), checked there against another slot and at its own
 * vertices, then put back where it was: everything about it, parts included, as before. */
static void op_far(fz_state *st)
{
    int k = fz_slot(st), other = fz_slot(st);
    uint8_t mode = fz_byte(st);
    double off = fz_number(st), angle = mode & 0x10 ? fz_number(st) : 0;
    c2d_shape *s = st->slot[k];
    if (!s)
        return;
    fz_snapshot before, after;
    fz_snapshot_take(s, &before);
    double base = mode & 1 ? 1.0000000000000002e15 : C2D_MAX_COORDINATE;
    double dx = isfinite(off) ? fabs(off) : 0.0;
    c2d_vec2 p = fz_v((mode & 2 ? -1 : 1) * (base - dx), mode & 4 ? (mode & 8 ? -1 : 1) * (base - dx) : before.pos.y);
    double a = mode & 0x10 ? angle : before.angle;
    if (fz_trace)
        fprintf(stderr, " -> (%.17g, %.17g) angle %.17g", p.x, p.y, a);
    c2d_status r = c2d_shape_set_transform(s, p, a);
    fz_check_status(r);
    c2d_status want = fz_vec_status(p);
    if (want == C2D_OK)
        want = fz_number_status(a);
    if (want != C2D_OK) {
        FZ_CHECK(r == want, "placing at (%.17g, %.17g) angle %.17g gave %d, not %d", p.x, p.y, a, (int)r, (int)want);
        fz_snapshot_take(s, &after);
        FZ_CHECK(fz_snapshot_equal(&before, &after), "a refused far placement changed the shape");
        return;
    }
    FZ_CHECK(r == C2D_OK, "placing at (%.17g, %.17g) angle %.17g gave %d", p.x, p.y, a, (int)r);
    fz_check_shape(s);
    if (other != k)
        fz_check_slots(st, k, other);
    fz_snapshot_take(s, &after);
    for (int i = 0; i < after.count && i < 4; i++)
        fz_check_model_point(st, k, after.v[i]);
    FZ_CHECK(c2d_shape_set_transform(s, before.pos, before.angle) == C2D_OK, "putting the shape back failed");
    fz_snapshot_take(s, &after);
    FZ_CHECK(fz_snapshot_equal(&before, &after), "placed far away and back, the shape is not as it was");
}

/* The op table. Append only (see the file comment); the index is the op byte's low 6 bits. */
static const struct {
    const char *name;
    void (*run)(fz_state *);
} fz_ops[] = {
    {"circle", op_circle},
    {"rect", op_rect},
    {"polygon", op_polygon},
    {"hull", op_hull},
    {"capsule", op_capsule},
    {"segment", op_segment},
    {"clone", op_clone},
    {"destroy", op_destroy},
    {"set_position", op_set_position},
    {"set_angle", op_set_angle},
    {"set_transform", op_set_transform},
    {"move", op_move},
    {"rotate", op_rotate},
    {"pair", op_pair},
    {"all_pairs", op_all_pairs},
    {"point", op_point},
    {"raycast", op_raycast},
    {"aimed_ray", op_aimed_ray},
    {"vertices", op_vertices},
    {"misc", op_misc},
    {"sweep", op_sweep},
    {"set_new", op_set_new},
    {"set_enable", op_set_enable},
    {"set_mark", op_set_mark},
    {"set_sweep", op_set_sweep},
    {"set_push_out", op_set_push_out},
    {"set_move", op_set_move},
    {"set_ball", op_set_ball},
    {"world_new", op_world_new},
    {"world_add", op_world_add},
    {"world_remove", op_world_remove},
    {"world_update", op_world_update},
    {"world_set", op_world_set},
    {"world_query", op_world_query},
    {"world_ray", op_world_ray},
    {"world_pairs", op_world_pairs},
    {"world_optimize", op_world_optimize},
    {"world_move", op_world_move},
    {"feature_ray", op_feature_ray},
    {"share", op_share},
    {"set_place", op_set_place},
    {"set_velocity", op_set_velocity},
    {"set_one_way", op_set_one_way},
    {"world_one_way", op_world_one_way},
    {"concave", op_concave},
    {"chain", op_chain},
    {"ring_point", op_ring_point},
    {"far", op_far},
    /* new operations go here, appended */
};
#define FZ_NOPS ((int)(sizeof fz_ops / sizeof fz_ops[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_state st;
    memset(&st, 0, sizeof st);
    st.p = data;
    st.n = size;
    if (fz_trace < 0)
        fz_trace = getenv("FZ_TRACE") != NULL;
    if (fz_strict_touch < 0)
        fz_strict_touch = getenv("FZ_STRICT_COMPOUND_TOUCH") != NULL && getenv("FZ_STRICT_COMPOUND_TOUCH")[0] == '1';
    if (fz_strict_joints < 0)
        fz_strict_joints = getenv("FZ_STRICT_JOINTS") != NULL && getenv("FZ_STRICT_JOINTS")[0] == '1';
    if (fz_strict_misc < 0)
        fz_strict_misc = getenv("FZ_STRICT_MISC") != NULL && getenv("FZ_STRICT_MISC")[0] == '1';
    /* Fixed in the library (a direction given to a one-sided chain stays): strict unless asked not to. */
    if (fz_strict_chain < 0)
        fz_strict_chain = !(getenv("FZ_STRICT_CHAIN_ONE_WAY") != NULL && getenv("FZ_STRICT_CHAIN_ONE_WAY")[0] == '0');
    if (fz_strict_pairs < 0)
        fz_strict_pairs = !(getenv("FZ_STRICT_COMPOUND_PAIRS") != NULL && getenv("FZ_STRICT_COMPOUND_PAIRS")[0] == '0');
    fz_trace_slots = st.slot;
    fz_trace_state = &st;
    /* Bounded work per input, whatever its length. */
    for (int steps = 0; st.n > 0 && steps < 64; steps++) {
        int op = fz_byte(&st) % FZ_OP_SLOTS;
        if (op >= FZ_NOPS)
            continue;
        fz_current_op = fz_ops[op].name;
        if (fz_trace)
            fprintf(stderr, "%s", fz_current_op);
        if (fz_trace && getenv("FZ_TRACE")[0] == '2')
            fz_dump_slots();
        fz_ops[op].run(&st);
        if (fz_trace)
            fprintf(stderr, "\n");
    }
    fz_current_op = "all_pairs (final)";
    st.all_pairs_runs = 0;
    op_all_pairs(&st);
    fz_current_op = "cleanup";
    if (st.world) {
        fz_world_snap sn;
        fz_world_snapshot(&st, &sn);
    }
    fz_world_free(&st);
    fz_set_free(&st);
    for (int i = 0; i < FZ_SLOTS; i++)
        c2d_shape_destroy(st.slot[i]);
    return 0;
}
