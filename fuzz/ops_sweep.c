/* ops_sweep.c - swept collision (op 20): what c2d_sweep promises about a time of impact, checked on
 * copies of the shapes moved to sampled times (fz_moved, which the set and world checks use too). */
#include "fz.h"

/* ---- swept collision ------------------------------------------------------------------------ */

/* A copy of s moved by k * d, or NULL when that leaves the accepted range (then the check using it
 * is skipped: the motion itself was valid, only the sampled position cannot be represented). */
c2d_shape *fz_moved(const c2d_shape *s, c2d_vec2 d, double k)
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
double fz_dist_moved(const c2d_shape *a, c2d_vec2 da, double ka, const c2d_shape *b, c2d_vec2 db, double kb)
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

double fz_dist(const c2d_shape *a, const c2d_shape *b)
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

void op_sweep(fz_state *st)
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
