/* ops_turn.c - shapes that turn as they move (op 48): c2d_sweep_motion on any two slots with fuzzed
 * rigid motions, and the harness's own copies of a turning shape placed where its motion has taken it
 * (fz_posed: libm's trigonometry and c2d_shape_set_transform, nothing of the library's turning code),
 * which the set checks use for turning members too. */
#include "fz.h"

/* ---- rigid motions -------------------------------------------------------------------------- */

int fz_turns(const c2d_motion *m)
{
    return m && m->angular_velocity != 0;
}

/* Where the pivot of motion m stands for shape s as placed now: its position plus the pivot turned by
 * its angle (the pivot is in the shape's own frame, "turning with it"); the position for no motion.
 * A circle's pivot is not turned by its angle unless FZ_STRICT_CIRCLE_PIVOT=1 (see fz_strict_circle_pivot:
 * the library places it so, a known bug), so that the checks follow where the library turns it. */
c2d_vec2 fz_pivot_world(const c2d_shape *s, const c2d_motion *m)
{
    c2d_vec2 p = fz_v(0, 0);
    double a = 0;
    c2d_shape_get_position(s, &p);
    if (!m)
        return p;
    if (!fz_strict_circle_pivot && c2d_shape_get_type(s) == C2D_SHAPE_CIRCLE)
        return fz_v(p.x + m->pivot.x, p.y + m->pivot.y);
    c2d_shape_get_angle(s, &a);
    double c = cos(a), sn = sin(a);
    return fz_v(p.x + (c * m->pivot.x - sn * m->pivot.y), p.y + (sn * m->pivot.x + c * m->pivot.y));
}

/* The statuses c2d_sweep_motion and c2d_static_set_set_motion may give motion m of shape s, as a mask
 * of 1 << status: C2D_OK alone for a valid motion; for a bad one the status of any of its bad numbers
 * (NOT_FINITE or RANGE: the header names no order among the velocity, the angular velocity and the
 * pivot, though every call checks them in that order); where the pivot stands beyond
 * C2D_MAX_COORDINATE, RANGE, and within the rounding of the harness's placement of it (libm's
 * trigonometry, not the library's) of the limit, OK or RANGE. */
unsigned fz_motion_allowed(const c2d_shape *s, const c2d_motion *m)
{
    if (!m)
        return 1u << C2D_OK;
    double x[5] = {m->velocity.x, m->velocity.y, m->angular_velocity, m->pivot.x, m->pivot.y};
    unsigned bad = 0;
    for (int k = 0; k < 5; k++) {
        c2d_status st = fz_number_status(x[k]);
        if (st != C2D_OK)
            bad |= 1u << st;
    }
    if (bad)
        return bad;
    c2d_vec2 p = fz_v(0, 0);
    c2d_shape_get_position(s, &p);
    double mag = fz_vec_mag(fz_pivot_world(s, m));
    double slack = 8 * DBL_EPSILON * (fz_vec_mag(p) + fz_len(m->pivot));
    if (mag + slack <= C2D_MAX_COORDINATE)
        return 1u << C2D_OK;
    if (mag - slack > C2D_MAX_COORDINATE)
        return 1u << C2D_ERR_RANGE;
    return (1u << C2D_OK) | (1u << C2D_ERR_RANGE);
}

/* A rigid motion for shape s (which may be NULL) from the input: a mode byte, then the numbers it
 * names, each read on its own. Mode bits 6 and 7 both set: no motion (NULL). Bit 2: no velocity (a
 * pure turn). Bit 4: no turn (angular velocity 0: the translation case). Bit 3: the angular velocity
 * as read (NaN, infinities, huge and out-of-range numbers among them), else reduced to (-20, 20)
 * radians per unit of time (a turn a game makes in a step; NaN and infinities become 0). Bits 0-1,
 * the pivot: 0 the shape's position, 1 read, 2 one of the shape's vertices (a flipper's hinge at its
 * end), 3 the middle of one of its edges; in the shape's own frame. */
const c2d_motion *fz_motion(fz_state *st, const c2d_shape *s, c2d_motion *m)
{
    uint8_t mode = fz_byte(st);
    memset(m, 0, sizeof *m);
    if ((mode & 0xC0) == 0xC0) {
        if (fz_trace)
            fprintf(stderr, " {no motion}");
        return NULL;
    }
    if (!(mode & 4))
        m->velocity = fz_vec(st);
    if (!(mode & 0x10)) {
        double w = fz_number(st);
        m->angular_velocity = (mode & 8) ? w : isfinite(w) ? fmod(w, 20.0) : 0.0;
    }
    if ((mode & 3) == 1) {
        m->pivot = fz_vec(st);
    } else if ((mode & 3) >= 2) {
        uint8_t k = fz_byte(st);
        c2d_vec2 v[FZ_MAX_VERTS];
        int n = 0;
        if (s && c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &n) == C2D_OK && n > 0) {
            c2d_vec2 q = v[k % n], p;
            double a;
            if ((mode & 3) == 3)
                q = fz_v(0.5 * q.x + 0.5 * v[(k + 1) % n].x, 0.5 * q.y + 0.5 * v[(k + 1) % n].y);
            c2d_shape_get_position(s, &p);
            c2d_shape_get_angle(s, &a);
            c2d_vec2 d = fz_sub(q, p);
            double c = cos(a), sn = sin(a);
            m->pivot = fz_v(c * d.x + sn * d.y, -sn * d.x + c * d.y);
        }
    }
    if (fz_trace)
        fprintf(stderr, " {v (%.17g, %.17g) w %.17g pivot (%.17g, %.17g)}", m->velocity.x, m->velocity.y,
                m->angular_velocity, m->pivot.x, m->pivot.y);
    return m;
}

/* The size of a turning shape's scene, as the library measures the touching tolerance of a rotating
 * sweep: everything stays within the pivot's path swollen by the shape's reach from it. */
double fz_motion_scale(const c2d_shape *s, const c2d_motion *m)
{
    double sc = fz_shape_scale(s);
    if (!s || !m)
        return sc;
    c2d_aabb b;
    c2d_shape_get_aabb(s, &b);
    c2d_vec2 c = fz_pivot_world(s, m);
    double reach = fz_len(fz_sub(b.max, b.min)) + fz_len(fz_sub(c, b.min));
    return fmax(sc, fz_len(c) + fz_len(m->velocity) + reach);
}

/* The farthest a point of s lies from the pivot of m (at most). */
static double fz_lever(const c2d_shape *s, const c2d_motion *m)
{
    c2d_aabb b;
    c2d_shape_get_aabb(s, &b);
    c2d_vec2 c = fz_pivot_world(s, m);
    return fz_len(fz_sub(b.max, b.min)) + fz_len(fz_sub(c, b.min));
}

/* Whether fz_posed places s at time t of m to well within tol of where the library's turn puts it.
 * The library turns the placed shape by w t; the harness places a copy at the angle a0 + w t, one
 * rounding more, of up to an ulp of |a0| + |w t| radians, which moves points by that times their lever
 * about the pivot (the two trigonometries differ by a few ulps more). A shape standing at an angle of a
 * million radians, or turning as fast, has no place the harness can compute to the tolerance: the
 * checks that need it leave it out. */
int fz_pose_exact_enough(const c2d_shape *s, const c2d_motion *m, double t, double tol)
{
    if (!fz_turns(m))
        return 1;
    double a0 = 0;
    c2d_shape_get_angle(s, &a0);
    double err = 4 * DBL_EPSILON * (fabs(a0) + fabs(m->angular_velocity * t) + 1) * fz_lever(s, m);
    return isfinite(err) && err <= tol / 16;
}

/* A copy of s where motion m (NULL: standing still) has taken it at time t: the pivot c (where it
 * stands now) moved by velocity * t, the shape turned about it by w t: position c + v t + R(w t)(p - c),
 * angle a0 + w t. Without a turn, fz_moved's translation. NULL when c2d_shape_set_transform refuses
 * that place (the motion was valid; only that sample cannot be placed). */
c2d_shape *fz_posed(const c2d_shape *s, const c2d_motion *m, double t)
{
    if (!fz_turns(m))
        return fz_moved(s, m ? m->velocity : fz_v(0, 0), t);
    c2d_vec2 p;
    double a0;
    c2d_shape_get_position(s, &p);
    c2d_shape_get_angle(s, &a0);
    c2d_vec2 c = fz_pivot_world(s, m), r = fz_sub(p, c);
    double wt = m->angular_velocity * t, cw = cos(wt), sw = sin(wt);
    c2d_vec2 q = fz_v(c.x + m->velocity.x * t + (cw * r.x - sw * r.y), c.y + m->velocity.y * t + (sw * r.x + cw * r.y));
    c2d_shape *copy = NULL;
    if (c2d_shape_clone(s, &copy) != C2D_OK)
        return NULL;
    if (c2d_shape_set_transform(copy, q, a0 + wt) != C2D_OK) {
        c2d_shape_destroy(copy);
        return NULL;
    }
    return copy;
}

/* The velocity at time t of the point p of a shape moving by m: its velocity plus w x (p - c(t)), c(t)
 * the pivot moved by velocity * t. */
c2d_vec2 fz_motion_velocity_at(const c2d_shape *s, const c2d_motion *m, double t, c2d_vec2 p)
{
    if (!m)
        return fz_v(0, 0);
    c2d_vec2 c = fz_pivot_world(s, m);
    c2d_vec2 r = fz_v(p.x - (c.x + m->velocity.x * t), p.y - (c.y + m->velocity.y * t));
    double w = m->angular_velocity;
    return fz_v(m->velocity.x - w * r.y, m->velocity.y + w * r.x);
}

/* ---- the rotating sweep --------------------------------------------------------------------- */

/* Signed distance between a and b placed where their motions have taken them at time t; NAN when
 * either cannot be placed there. */
static double fz_dist_posed(const c2d_shape *a, const c2d_motion *ma, const c2d_shape *b, const c2d_motion *mb,
                            double t)
{
    c2d_shape *pa = fz_posed(a, ma, t), *pb = fz_posed(b, mb, t);
    double d = NAN;
    c2d_distance_result r;
    if (pa && pb && c2d_distance(pa, pb, &r) == C2D_OK)
        d = r.distance;
    c2d_shape_destroy(pa);
    c2d_shape_destroy(pb);
    return d;
}

/* Two results the same, field by field to the bit (the padding after the state is nobody's). */
static int fz_toi_same(const c2d_toi *x, const c2d_toi *y)
{
    return x->state == y->state && fz_same_bits(x->t, y->t) && fz_same_bits(x->normal.x, y->normal.x) &&
           fz_same_bits(x->normal.y, y->normal.y) && fz_same_bits(x->point.x, y->point.x) &&
           fz_same_bits(x->point.y, y->point.y) && fz_same_bits(x->depth, y->depth);
}

/* A rotating sweep's scene: the tolerance of its checks (FZ_REL_TOL of both shapes' motion scales),
 * whether the harness can place both shapes to that tolerance at every time of the unit, and the speed
 * no point of either shape exceeds (the velocities and each turn times its lever). */
typedef struct fz_turn_scene {
    double tol, speed;
    int posable;
} fz_turn_scene;

static fz_turn_scene fz_turn_scene_of(const c2d_shape *a, const c2d_motion *ma, const c2d_shape *b,
                                      const c2d_motion *mb)
{
    fz_turn_scene sc;
    sc.tol = FZ_REL_TOL * 4 * (1 + fmax(fz_motion_scale(a, ma), fz_motion_scale(b, mb)));
    sc.posable = fz_pose_exact_enough(a, ma, 1, sc.tol) && fz_pose_exact_enough(b, mb, 1, sc.tol);
    sc.speed = 0;
    const c2d_shape *s[2] = {a, b};
    const c2d_motion *m[2] = {ma, mb};
    for (int k = 0; k < 2; k++)
        if (m[k])
            sc.speed += fz_len(m[k]->velocity) + fabs(m[k]->angular_velocity) * fz_lever(s[k], m[k]);
    return sc;
}

/* Whether a and b move as one (the same motion about the same place): their pair stands as at t = 0
 * all the time, and only the rounding of the placed copies changes it (see fz_check_toi). */
static int fz_together(const c2d_shape *a, const c2d_motion *ma, const c2d_shape *b, const c2d_motion *mb)
{
    c2d_motion z;
    memset(&z, 0, sizeof z);
    const c2d_motion *x = ma ? ma : &z, *y = mb ? mb : &z;
    return fz_vec_eq(x->velocity, y->velocity) && x->angular_velocity == y->angular_velocity &&
           (!fz_turns(x) || fz_vec_eq(fz_pivot_world(a, ma), fz_pivot_world(b, mb)));
}

/* What c2d_sweep_motion promises about one result with a turn in it (A moving by ma, B by mb; still
 * the answer of c2d_sweep(a, 0, b, 0)): the state one of the three, t in [0, 1]; NONE with t = 1 and
 * the rest zero; an overlap exactly c2d_sweep's at t = 0, and only then; a HIT with depth 0, a unit
 * normal and a finite point. Where the harness can place the shapes: never after a contact, so no
 * overlap deeper than the tolerance at 16 times up to t (to the end of the unit for NONE), and where
 * they touch at t, the point on both surfaces. Returns the gap at t for a HIT (NAN when unknown). */
static double fz_check_turn_toi(const c2d_shape *a, const c2d_motion *ma, const c2d_shape *b, const c2d_motion *mb,
                                const c2d_toi *r, const c2d_toi *still, const fz_turn_scene *sc)
{
    double tol = sc->tol;
    FZ_CHECK((int)r->state >= 0 && (int)r->state <= 2, "sweep_motion state %d", (int)r->state);
    FZ_CHECK(isfinite(r->t) && r->t >= 0 && r->t <= 1, "sweep_motion t %g", r->t);
    FZ_CHECK((r->state == C2D_TOI_OVERLAP) == (still->state == C2D_TOI_OVERLAP),
             "sweep_motion state %d but c2d_sweep standing still says %d", (int)r->state, (int)still->state);
    if (r->state == C2D_TOI_OVERLAP) {
        FZ_CHECK(fz_toi_same(r, still), "sweep_motion's overlap is not c2d_sweep's");
        return NAN;
    }
    if (r->state == C2D_TOI_NONE) {
        FZ_CHECK(r->t == 1 && r->depth == 0 && r->normal.x == 0 && r->normal.y == 0 && r->point.x == 0 &&
                     r->point.y == 0,
                 "sweep_motion NONE with t %g depth %g normal (%g, %g) point (%g, %g)", r->t, r->depth, r->normal.x,
                 r->normal.y, r->point.x, r->point.y);
    } else {
        FZ_CHECK(r->depth == 0, "sweep_motion HIT with depth %g", r->depth);
        fz_check_unit(r->normal, "sweep_motion normal");
        FZ_CHECK(fz_finite_vec(r->point), "sweep_motion point not finite");
    }
    if (!sc->posable)
        return NAN;
    /* Two chains or concave polygons moving as one: see fz_check_toi in ops_sweep.c (an ulp of their
     * placement can change how deep coincident copies lie). */
    if (fz_is_compound(a) && fz_is_compound(b) && fz_together(a, ma, b, mb))
        return NAN;
    double end = r->state == C2D_TOI_NONE ? 1 : r->t;
    for (int k = 1; k <= 16; k++) {
        double tk = end * k / 16.0;
        double d = fz_dist_posed(a, ma, b, mb, tk);
        FZ_CHECK(!(d < -tol), "sweep_motion state %d at t = %.17g, but the shapes are %.17g deep at t = %.17g (tol %g)",
                 (int)r->state, r->t, -d, tk, tol);
    }
    if (r->state != C2D_TOI_HIT)
        return NAN;
    double gap = fz_dist_posed(a, ma, b, mb, r->t);
    /* Touching at t (not the early answer the header allows for a motion grazing the other shape for
     * the whole unit): the contact point is on both surfaces as they stand then. */
    if (fabs(gap) <= tol && fz_ok_vec(r->point)) {
        c2d_shape *pa = fz_posed(a, ma, r->t), *pb = fz_posed(b, mb, r->t);
        double da = pa ? fz_sd(pa, r->point) : 0, db = pb ? fz_sd(pb, r->point) : 0;
        c2d_shape_destroy(pa);
        c2d_shape_destroy(pb);
        FZ_CHECK(fabs(da) <= tol && fabs(db) <= tol,
                 "sweep_motion HIT at t %.17g: point (%.17g, %.17g) off the surfaces: %g and %g (tol %g)", r->t,
                 r->point.x, r->point.y, da, db, tol);
    }
    return gap;
}

/* Whether n is a normal the pair (a, b) touching at time t can have: B moved away along it by delta
 * is delta from A. The pair's Minkowski difference is convex (a and b are), so the distance from it of
 * a point pushed out by delta along a direction of its normal cone at the touching point is delta
 * exactly, and less along any other: two different normals are both right only where the cone is wide
 * (a corner meets, or several features touch at once). -1 when that cannot be placed. */
static int fz_normal_fits(const c2d_shape *a, const c2d_motion *ma, const c2d_shape *b, const c2d_motion *mb,
                          double t, c2d_vec2 n, double delta, double tol)
{
    c2d_shape *pa = fz_posed(a, ma, t), *pb = fz_posed(b, mb, t);
    int fits = -1;
    c2d_distance_result r;
    if (pa && pb && c2d_shape_move(pb, fz_v(delta * n.x, delta * n.y)) == C2D_OK &&
        c2d_distance(pa, pb, &r) == C2D_OK)
        fits = r.distance >= delta - 4 * tol;
    c2d_shape_destroy(pa);
    c2d_shape_destroy(pb);
    return fits;
}

/* c2d_sweep_motion on two slots (either may be empty) with fuzzed motions (fz_motion; either may be
 * NULL). Bad input: ERR_NULL, or the status of one of the bad numbers (fz_motion_allowed), nothing
 * written. Without a turn: c2d_sweep's status and answer, field by field to the bit. With one:
 * fz_check_turn_toi, and the swapped call (B's motion first) gives the same state and time (within the
 * tolerance over the closing speed at the contact) and the normal negated to 1e-3, unless the answer is
 * a touch at the start or end, a grazing one, or the early answer of a grazing motion; two normals that
 * differ must both fit the touching pair (fz_normal_fits: they touch at a corner, or in several
 * places), checked on convex pairs (a compound's parts may touch in several places with no corner). */
void op_sweep_motion(fz_state *st)
{
    int i = fz_slot(st), j = fz_slot(st);
    const c2d_shape *a = st->slot[i], *b = st->slot[j];
    c2d_motion ma, mb;
    const c2d_motion *pa = fz_motion(st, a, &ma);
    const c2d_motion *pb = fz_motion(st, b, &mb);
    fz_kind_a = (int)c2d_shape_get_type(a);
    fz_kind_b = (int)c2d_shape_get_type(b);
    c2d_toi r;
    memset(&r, FZ_POISON, sizeof r);
    c2d_status s = c2d_sweep_motion(a, pa, b, pb, &r);
    fz_check_status(s);
    FZ_CHECK(c2d_sweep_motion(a, pa, b, pb, NULL) == C2D_ERR_NULL, "sweep_motion with a NULL out accepted");
    if (!a || !b) {
        FZ_CHECK(s == C2D_ERR_NULL && fz_is_poison(&r, sizeof r), "sweep_motion of an empty slot gave %d or wrote",
                 (int)s);
        return;
    }
    unsigned aa = fz_motion_allowed(a, pa), ab = fz_motion_allowed(b, pb), bad = (aa | ab) & ~1u;
    int may_ok = (aa & 1u) && (ab & 1u), must_ok = aa == 1u && ab == 1u;
    if (!must_ok && s != C2D_OK) {
        FZ_CHECK((bad >> (unsigned)s) & 1u, "sweep_motion of a bad motion gave %d (allowed mask %#x)", (int)s, bad);
        FZ_CHECK(fz_is_poison(&r, sizeof r), "sweep_motion wrote its output on error");
        return;
    }
    FZ_CHECK(may_ok, "sweep_motion of a bad motion (allowed mask %#x) accepted", bad);
    c2d_vec2 va = pa ? pa->velocity : fz_v(0, 0), vb = pb ? pb->velocity : fz_v(0, 0);
    if (!fz_turns(pa) && !fz_turns(pb)) {
        /* The translation case: c2d_sweep of the two velocities, bit for bit, status included (a
         * compound's relative motion reaching past the range is FZ_STRICT_MISC's, checked in op_sweep). */
        c2d_toi r2;
        memset(&r2, FZ_POISON, sizeof r2);
        c2d_status s2 = c2d_sweep(a, va, b, vb, &r2);
        FZ_CHECK(s == s2, "sweep_motion without a turn gave %d, c2d_sweep %d", (int)s, (int)s2);
        FZ_CHECK(s != C2D_OK || fz_toi_same(&r, &r2),
                 "sweep_motion without a turn: state %d t %.17g normal (%.17g, %.17g), c2d_sweep state %d t %.17g "
                 "normal (%.17g, %.17g)",
                 (int)r.state, r.t, r.normal.x, r.normal.y, (int)r2.state, r2.t, r2.normal.x, r2.normal.y);
        if (s != C2D_OK)
            FZ_CHECK(fz_is_poison(&r, sizeof r), "sweep_motion wrote its output on error");
        return;
    }
    FZ_CHECK(s == C2D_OK, "valid sweep_motion rejected with %d", (int)s);
    if (fz_trace)
        fprintf(stderr, " -> state %d t %.17g normal (%.17g, %.17g) point (%.17g, %.17g)", (int)r.state, r.t,
                r.normal.x, r.normal.y, r.point.x, r.point.y);
    c2d_toi still, still2;
    FZ_CHECK(c2d_sweep(a, fz_v(0, 0), b, fz_v(0, 0), &still) == C2D_OK &&
                 c2d_sweep(b, fz_v(0, 0), a, fz_v(0, 0), &still2) == C2D_OK,
             "c2d_sweep standing still rejected");
    fz_turn_scene sc = fz_turn_scene_of(a, pa, b, pb);
    double tol = sc.tol;
    double g1 = fz_check_turn_toi(a, pa, b, pb, &r, &still, &sc);
    c2d_toi r2;
    memset(&r2, FZ_POISON, sizeof r2);
    FZ_CHECK(c2d_sweep_motion(b, pb, a, pa, &r2) == C2D_OK, "swapped sweep_motion rejected");
    double g2 = fz_check_turn_toi(b, pb, a, pa, &r2, &still2, &sc);
    if (!sc.posable)
        return;
    /* Where the two answers may differ: a touch at the start or at the end of the unit, an answer that
     * is no touch (the early answer of a grazing motion), or a touch whose surfaces close slower than
     * 1e-6 of the scene's speed there (grazing: parting and sliding touches are no contact). */
    double d0 = fz_dist_posed(a, pa, b, pb, 0), d1 = fz_dist_posed(a, pa, b, pb, 1);
    int border = !(fabs(d0) > tol) || !(fabs(d1) > tol);
    double closing = NAN;
    const c2d_toi *hits[2] = {&r, &r2};
    double gaps[2] = {g1, g2};
    for (int k = 0; k < 2; k++) {
        const c2d_toi *h = hits[k];
        if (h->state != C2D_TOI_HIT)
            continue;
        if (!(fabs(gaps[k]) <= tol)) {
            border = 1;
            continue;
        }
        /* The rate at which the surfaces close at the point, along the normal (from the first shape of
         * that call to the second). */
        const c2d_shape *x = k ? b : a, *y = k ? a : b;
        const c2d_motion *mx = k ? pb : pa, *my = k ? pa : pb;
        c2d_vec2 u = fz_sub(fz_motion_velocity_at(x, mx, h->t, h->point), fz_motion_velocity_at(y, my, h->t, h->point));
        double c = h->normal.x * u.x + h->normal.y * u.y;
        if (!(c > 1e-6 * sc.speed))
            border = 1;
        if (k == 0)
            closing = c;
    }
    if (r.state != r2.state) {
        FZ_CHECK(border, "sweep_motion state %d but %d with the arguments swapped (t %.17g and %.17g)", (int)r.state,
                 (int)r2.state, r.t, r2.t);
        return;
    }
    if (r.state != C2D_TOI_HIT || border)
        return;
    FZ_CHECK(fabs(r.t - r2.t) * closing <= tol, "sweep_motion t %.17g but %.17g with the arguments swapped (closing at %g)",
             r.t, r2.t, closing);
    if (fz_is_compound(a) || fz_is_compound(b))
        return;
    double nd = fz_len(fz_v(r.normal.x + r2.normal.x, r.normal.y + r2.normal.y));
    if (nd <= 1e-3)
        return;
    /* Moved apart by the scene's size: tol / delta is then far below the 1e-7 of the angle's cosine
     * that a normal 5e-4 off the only one loses. */
    double delta = 1 + fmax(fz_motion_scale(a, pa), fz_motion_scale(b, pb));
    int f1 = fz_normal_fits(a, pa, b, pb, r.t, r.normal, delta, tol);
    int f2 = fz_normal_fits(a, pa, b, pb, r.t, fz_v(-r2.normal.x, -r2.normal.y), delta, tol);
    FZ_CHECK(f1 != 0 && f2 != 0,
             "sweep_motion normal (%.17g, %.17g) at t %.17g but (%.17g, %.17g) with the arguments swapped, and %s "
             "does not fit the touching pair",
             r.normal.x, r.normal.y, r.t, r2.normal.x, r2.normal.y, f1 == 0 ? "the first" : "the swapped one");
}

/* ---- a mover that turns during its own move (op 50) ------------------------------------------ */

/* Whether any member of the set moves or turns (a carry, or a crush, can then end a move anywhere). */
static int fz_set_in_motion(const fz_state *st)
{
    for (int i = 0; i < st->set_n; i++) {
        c2d_motion mm;
        c2d_vec2 v;
        if (c2d_static_set_get_motion(st->set, i, &mm) == C2D_OK && mm.angular_velocity != 0)
            return 1;
        if (c2d_static_set_get_velocity(st->set, i, &v) == C2D_OK && (v.x != 0 || v.y != 0))
            return 1;
    }
    return 0;
}

/* c2d_static_set_move_turning of any slot with a fuzzed motion and options. Refused input writes
 * nothing; accepted: the numbers are finite, no turn goes past the motion's own angle unless a turning
 * member carried the mover, a motion without a turn is c2d_static_set_move bit for bit (no member
 * turning), and where no member moves the mover ends outside every solid member it meets, at the pose
 * the call reports (position plus displacement, angle plus the turn). */
void op_set_move_turning(fz_state *st)
{
    const c2d_shape *m = st->slot[fz_slot(st)];
    c2d_motion mo;
    const c2d_motion *mp = fz_motion(st, m, &mo);
    c2d_move_options o;
    c2d_response arr[FZ_SET_MAX], resp[FZ_SET_MAX];
    int opt_ok;
    const c2d_move_options *op = fz_move_options(st, &o, arr, st->set_n, C2D_RESPONSE_SLIDE, resp, &opt_ok);
    c2d_sweep_contact c[16];
    c2d_move_result res;
    double turned;
    memset(c, FZ_POISON, sizeof c);
    memset(&res, FZ_POISON, sizeof res);
    memset(&turned, FZ_POISON, sizeof turned);
    c2d_status s = c2d_static_set_move_turning(st->set, m, mp, op, &res, &turned, c, 16);
    fz_check_status(s);
    if (s != C2D_OK) {
        FZ_CHECK(fz_is_poison(&res, sizeof res) && fz_is_poison(c, sizeof c) && fz_is_poison(&turned, sizeof turned),
                 "move_turning wrote on error %d", (int)s);
        /* A chain or concave mover with a valid motion: C2D_ERR_NOT_CONVEX (a bad motion may be named
         * first). */
        if (st->set && m && mp && opt_ok && fz_is_compound(m) && fz_motion_allowed(m, mp) == (1u << C2D_OK))
            FZ_CHECK(s == C2D_ERR_NOT_CONVEX, "move_turning of a compound mover gave %d", (int)s);
        return;
    }
    FZ_CHECK(st->set && m && mp && opt_ok && !fz_is_compound(m), "bad move_turning accepted");
    FZ_CHECK(fz_motion_allowed(m, mp) & (1u << C2D_OK), "move_turning accepted a motion it should refuse");
    fz_check_move_result(&res);
    fz_check_contacts(c, 16, res.count, st->set_n, resp);
    FZ_CHECK(isfinite(turned), "turned %g", turned);
    int moving = fz_set_in_motion(st);
    if (!moving)
        FZ_CHECK(fabs(turned) <= fabs(mp->angular_velocity) && turned * mp->angular_velocity >= 0,
                 "turned %.17g of a turn of %.17g", turned, mp->angular_velocity);
    if (mp->angular_velocity == 0 && !moving) {
        c2d_move_result r2;
        c2d_sweep_contact c2[16];
        memset(c2, FZ_POISON, sizeof c2);
        c2d_status s2 = c2d_static_set_move(st->set, m, mp->velocity, op, &r2, c2, 16);
        FZ_CHECK(s2 == C2D_OK && memcmp(&r2, &res, sizeof r2) == 0 && memcmp(c2, c, sizeof c2) == 0,
                 "move_turning without a turn differs from the move");
    }
    if (moving || res.truncated)
        return;
    c2d_aabb mb;
    c2d_shape_get_aabb(m, &mb);
    if (st->set_seam_tol >= fmin(mb.max.x - mb.min.x, mb.max.y - mb.min.y))
        return; /* a gap counted as a seam stays open (as for set_move) */
    c2d_shape *end = NULL;
    c2d_vec2 p;
    double a;
    c2d_shape_get_position(m, &p);
    c2d_shape_get_angle(m, &a);
    if (c2d_shape_clone(m, &end) != C2D_OK)
        return;
    if (c2d_shape_set_transform(end, fz_v(p.x + res.displacement.x, p.y + res.displacement.y), a + turned) == C2D_OK &&
        fz_pose_exact_enough(m, mp, 1, FZ_REL_TOL * (1 + fz_motion_scale(m, mp)))) {
        double scale = fz_set_scale(st, end, fz_v(0, 0), 1) + fz_motion_scale(m, mp);
        double tol = FZ_REL_TOL * 4 * (1 + scale);
        int w;
        double d1 = fz_set_clearance(st, end, fz_v(0, 0), 1, 1, resp, &w);
        FZ_CHECK(!(d1 < -tol), "turned by %.17g and moved by (%.17g, %.17g), the mover ends %.17g inside shape %d",
                 turned, res.displacement.x, res.displacement.y, d1, w);
    }
    c2d_shape_destroy(end);
}
