/* fz_checks.c - what the header promises about one pair, point or ray query, checked after every call:
 * contacts, distances and overlaps agreeing with each other and under argument swap, pushes that
 * separate, ray hits on the boundary and misses that stay out. */
#include "fz.h"

/* ---- query checks -------------------------------------------------------------------------- */

/* Signed distance from p to a shape's boundary, through the library. Outputs (contact points, vertices)
 * may lie beyond C2D_MAX_COORDINATE, where the library rightly refuses points: those give 0, which
 * passes every check that uses it. */
double fz_sd(const c2d_shape *s, c2d_vec2 p)
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
double fz_sliver_slack(const c2d_shape *s)
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

int fz_same_bits(double x, double y)
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
void fz_check_pair(const c2d_shape *a, const c2d_shape *b)
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
void fz_check_ray(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t, const c2d_ray_hit *h)
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
void fz_check_miss(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t)
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
