/* sat.c - the general narrow phase for any two rounded convex cores: separating-axis test over the
 * edge normals of both cores, reference/incident face clipping for up to two contact points, and the
 * rounded case where the cores are apart but the radii reach across (closest features decide).
 *
 * The minimum translation is exact for convex sets: the Minkowski difference of two convex polygons
 * has edges only along edges of the two, so its nearest face to the origin is along one of their
 * normals; rounding both by radii adds rA + rB to that depth. Layer 3, kernels. */
#include "shape.h"

#include <float.h>
#include <string.h>

/* Normals within this cosine of a face normal count as that face: the contact then gets the face's
 * two clipped points instead of a single closest point (a capsule lying on a box). */
#define C2D_FACE_COS (1.0 - 1e-9)

/* When the cores' closest points are closer than this (times the radii plus the coordinate size),
 * their direction would be rounding noise: the best face normal is used instead, which costs at most
 * that distance in depth. */
#define C2D_NEAR_FACE 1e-10

/* Clipped ends are measured against the cores' closest points to within this (times the radii plus
 * the coordinate size): rounding, with room to spare. A looser bound passed clipped ends of a face far
 * from where a capsule of radius 1e9 touches a small box, whose depth was only a few units. */
#define C2D_CLIP_TOL 1e-12

static double near_face_tol(double reach, c2d_vec2 p)
{
    return C2D_NEAR_FACE * reach + 1e-3 * C2D_NEAR_FACE * (fabs(p.x) + fabs(p.y));
}

/* Separation along a's normals, stopping early once one exceeds `stop` (enough to reject).
 * Rotating calipers: a's normals turn counter-clockwise, so the vertex of b that is deepest along
 * each of them only ever advances counter-clockwise too. One scan finds it for the first normal;
 * after that each normal costs O(1) amortised, O(na + nb) in all instead of O(na * nb). */
static double separation_until(const c2d_core *a, const c2d_core *b, double stop, int *edge)
{
    int na = c2d_core_edges(a), nb = b->count;
    const c2d_vec2 *bv = b->v;
    double best = -INFINITY;
    *edge = 0;
    if (na == 0)
        return best;
    if (nb <= 16) {
        /* Few vertices: every pair, in loops without data-dependent branches (the walk below
         * mispredicts its exits about once per normal, which costs more than the products it saves).
         * The same minimum, and the same edge, as the walk finds. Whether a normal's separation is
         * the largest so far is a coin toss to the branch predictor, so that is a select; whether it
         * passes `stop` is not (most normals of a pair a broadphase hands over do not separate it):
         * that exit is a branch, and on a pair that is apart it saves the normals after it, and often
         * the other core's pass. */
        int e = 0, odd = nb & 1, i = 0;
        /* Two normals at a time share the loads of b's vertices, and each keeps two minima, over b's
         * vertices in pairs (half the steps, half the chain of comparisons; an odd count starts both
         * with vertex 0): the same minimum, up to the sign of a zero, which no answer reads. */
        for (; i + 1 < na; i += 2) {
            c2d_vec2 n = a->n[i], m = a->n[i + 1];
            c2d_vec2 v0 = bv[0], v1 = bv[1 - odd];
            double d0 = v2_dot(n, v0), d1 = v2_dot(n, v1), f0 = v2_dot(m, v0), f1 = v2_dot(m, v1);
            for (int k = 2 - odd; k < nb; k += 2) {
                c2d_vec2 p = bv[k], q = bv[k + 1];
                double dp = v2_dot(n, p), dq = v2_dot(n, q), fp = v2_dot(m, p), fq = v2_dot(m, q);
                d0 = dp < d0 ? dp : d0;
                d1 = dq < d1 ? dq : d1;
                f0 = fp < f0 ? fp : f0;
                f1 = fq < f1 ? fq : f1;
            }
            double s = (d1 < d0 ? d1 : d0) - v2_dot(n, a->v[i]);
            double t = (f1 < f0 ? f1 : f0) - v2_dot(m, a->v[i + 1]);
            if (s > stop || t > stop) {
                *edge = s > stop ? i : i + 1;
                return s > stop ? s : t;
            }
            int more = s > best;
            e = more ? i : e;
            best = more ? s : best;
            more = t > best;
            e = more ? i + 1 : e;
            best = more ? t : best;
        }
        if (i < na) {
            c2d_vec2 n = a->n[i];
            double d0 = v2_dot(n, bv[0]), d1 = v2_dot(n, bv[1 - odd]);
            for (int k = 2 - odd; k < nb; k += 2) {
                double p = v2_dot(n, bv[k]), q = v2_dot(n, bv[k + 1]);
                d0 = p < d0 ? p : d0;
                d1 = q < d1 ? q : d1;
            }
            double s = (d1 < d0 ? d1 : d0) - v2_dot(n, a->v[i]);
            if (s > stop) {
                *edge = i;
                return s;
            }
            int more = s > best;
            e = more ? i : e;
            best = more ? s : best;
        }
        *edge = e;
        return best;
    }
    int j = 0;
    c2d_vec2 n = a->n[0];
    double d = v2_dot(n, bv[0]);
    for (int k = 1; k < nb; k++) {
        double dk = v2_dot(n, bv[k]);
        if (dk < d) {
            d = dk;
            j = k;
        }
    }
    for (int i = 0;;) {
        double s = d - v2_dot(n, a->v[i]);
        if (s > best) {
            best = s;
            *edge = i;
            if (s > stop)
                return s;
        }
        if (++i == na)
            break;
        n = a->n[i];
        d = v2_dot(n, bv[j]);
        for (int steps = 1; steps < nb; steps++) {
            int k = j + 1 == nb ? 0 : j + 1;
            double dk = v2_dot(n, bv[k]);
            /* Walk across ties too: an edge of b square to n is a plateau that may sit at the
             * maximum (after a turn of 90 degrees or more, e.g. a segment's two opposite normals),
             * with the minimum still ahead. At most nb - 1 steps, so it always ends. */
            if (!(dk <= d))
                break;
            d = dk;
            j = k;
        }
    }
    return best;
}

/* Point and segment cores have no area, so the Minkowski difference of two of them can itself be a
 * segment whose ends no edge normal covers (a point on a segment's line, beyond its end; two
 * collinear segments with a gap). For such pairs each segment's own direction is an axis too. */
static double flat_gap(const c2d_core *a, const c2d_core *b)
{
    double gap = -INFINITY;
    if (a->count > 2 || b->count > 2)
        return gap;
    for (int k = 0; k < 2; k++) {
        const c2d_core *seg = k ? b : a, *other = k ? a : b;
        if (seg->count != 2)
            continue;
        /* The unit direction, from the exact normal: a segment shorter than about 1e-154 has a
         * squared length that underflows (dividing by its length gave infinite gaps), and one whose
         * placed ends coincide (far out) has no direction of its own left. */
        c2d_vec2 t = v2(-seg->n[0].y, seg->n[0].x);
        double s0 = v2_dot(t, seg->v[0]), s1 = v2_dot(t, seg->v[1]);
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < other->count; i++) {
            double d = v2_dot(t, other->v[i]);
            lo = fmin(lo, d);
            hi = fmax(hi, d);
        }
        gap = fmax(gap, fmax(lo - fmax(s0, s1), fmin(s0, s1) - hi));
    }
    return gap;
}

static void add_point(c2d_contact *c, c2d_vec2 p, double depth)
{
    if (c->count < 2) {
        c->points[c->count] = p;
        /* c->depth (set before clipping) is the true penetration; a point measured another way
         * must not round past it. */
        c->point_depths[c->count] = depth < c->depth ? depth : c->depth;
        c->count++;
    }
}

/* Contact points from reference face `e` of `ref` against the most opposed face of `inc`. n is the
 * reference face normal (from ref towards inc). Points are midway between the two surfaces. Returns
 * the separation of the deepest clipped end from the face along n. */
static double clip_faces(const c2d_core *ref, int e, const c2d_core *inc, c2d_vec2 n, c2d_contact *c)
{
    double rr = ref->radius, ri = inc->radius, reach = rr + ri;
    /* The face's unit direction, from its normal: a face whose placed ends coincide (a rectangle
     * thinner than the spacing of doubles there) or so short that products of its coordinates
     * underflow still has one, where v2 - v1 would give none. */
    c2d_vec2 u = v2(-ref->n[e].y, ref->n[e].x);
    c2d_vec2 v1 = ref->v[e], v2 = ref->v[(e + 1) % ref->count];
    c2d_vec2 ends[2];
    int m;
    if (inc->count == 1) {
        ends[0] = inc->v[0];
        m = 1;
    } else {
        /* Incident edge: the one whose normal opposes n most. */
        int k = 0, ni = c2d_core_edges(inc);
        double lo = INFINITY;
        for (int i = 0; i < ni; i++) {
            /* As selects: which normal opposes n most is a coin toss to the branch predictor. The
             * clip below compares with c2d_maxd and c2d_mind, not the libm calls: u1 and u2 are
             * never NaN (d1 != d2), and for numbers both are x > y ? x : y (x < y ? x : y). */
            double d = v2_dot(inc->n[i], n);
            k = d < lo ? i : k;
            lo = d < lo ? d : lo;
        }
        c2d_vec2 i1 = inc->v[k], i2 = inc->v[(k + 1) % inc->count];
        /* Clip the incident edge to the slab between the reference face's end points. */
        double lower = v2_dot(u, v1), upper = v2_dot(u, v2);
        double d1 = v2_dot(u, i1), d2 = v2_dot(u, i2);
        if (c2d_maxd(d1, d2) < lower || c2d_mind(d1, d2) > upper) {
            /* It misses the slab. Neighbouring edges within rounding of parallel (the long sides of a
             * sliver, a vertex that goes on almost straight) tie for the most opposed: their products
             * with n agree to the last bits, and the first of them may lie far along the run from
             * the face (a capsule beside the top of a sliver got its contact point at the sliver's
             * bottom, 99 units off it). They are one side to within their tiny turns, and each end is
             * measured by its own separation below: one of them that reaches into the slab is taken.
             * Rarely run (an edge that misses), so the common path costs nothing. */
            double tie = lo + 4 * DBL_EPSILON;
            for (int i = 0; i < ni; i++) {
                if (i == k || !(v2_dot(inc->n[i], n) <= tie))
                    continue;
                c2d_vec2 j1 = inc->v[i], j2 = inc->v[(i + 1) % inc->count];
                double e1 = v2_dot(u, j1), e2 = v2_dot(u, j2);
                if (c2d_maxd(e1, e2) >= lower && c2d_mind(e1, e2) <= upper) {
                    i1 = j1, i2 = j2, d1 = e1, d2 = e2;
                    break;
                }
            }
        }
        m = 0;
        if (d1 != d2) {
            double u1 = (lower - d1) / (d2 - d1), u2 = (upper - d1) / (d2 - d1);
            double ulo = c2d_maxd(0.0, c2d_mind(u1, u2)), uhi = c2d_mind(1.0, c2d_maxd(u1, u2));
            if (ulo <= uhi) {
                ends[m++] = ulo <= 0.0 ? i1 : v2_lerp(i1, i2, ulo);
                if (uhi > ulo)
                    ends[m++] = uhi >= 1.0 ? i2 : v2_lerp(i1, i2, uhi);
            }
        } else if (d1 >= lower && d1 <= upper) {
            /* The incident edge is perpendicular to the reference face: its deeper end counts. */
            ends[m++] = v2_dot(n, i1) <= v2_dot(n, i2) ? i1 : i2;
        }
        if (m == 0 && d1 != d2) {
            /* The incident edge misses the slab (n is then a closest-feature direction, not this
             * face's normal, or rounding put it just outside): its end nearest to the slab. */
            int first = d1 < lower ? d1 > d2 : d1 < d2;
            ends[m++] = first ? i1 : i2;
        } else if (m == 0) {
            /* Numerically outside the slab: fall back to the deepest incident vertex. */
            ends[m++] = v2_dot(n, i1) <= v2_dot(n, i2) ? i1 : i2;
        }
    }
    double seps[2];
    int deepest = 0;
    for (int i = 0; i < m; i++) {
        /* Measured from the foot of the end on the face's line, not from v1: when n is the closest-
         * feature direction rather than the face normal, the small angle between them times the
         * distance from v1 (a long face) would swamp the separation. */
        c2d_vec2 foot = v2_mad(v1, v2_dot(v2_sub(ends[i], v1), u), u);
        seps[i] = v2_dot(n, v2_sub(ends[i], foot));
        if (seps[i] < seps[deepest])
            deepest = i;
    }
    for (int i = 0; i < m; i++) {
        double sep = seps[i];
        /* Ends beyond reach are no contact; if rounding puts every end there (touching), the
         * deepest one still stands for the touch. */
        if (sep > reach && !(i == deepest && seps[deepest] > reach))
            continue;
        c2d_vec2 on_ref = v2_mad(ends[i], rr - sep, n);
        c2d_vec2 on_inc = v2_mad(ends[i], -ri, n);
        double pd = reach - sep;
        add_point(c, v2_mid(on_ref, on_inc), pd > 0 ? pd : 0.0);
    }
    return seps[deepest];
}

/* Writes a one-point contact. The memset is for the padding after count: results compare equal
 * byte for byte (the fuzzer checks world pairs against c2d_collide with memcmp). */
static void one_point(c2d_contact *out, c2d_vec2 normal, double depth, c2d_vec2 point)
{
    memset(out, 0, sizeof *out);
    out->normal = normal;
    out->depth = depth;
    out->count = 1;
    out->points[0] = point;
    out->point_depths[0] = depth;
}

/* The empty contact: count 0 and every field zero. */
static void no_contact(c2d_contact *out)
{
    memset(out, 0, sizeof *out);
}

/* A circle (centre c, radius r) against a polygon core of radius 0: the common case gets its own
 * exact O(n) path, in Box2D's order. One pass finds the edge whose line the centre is farthest
 * outside of (any edge the centre is beyond by more than r ends it: no overlap). Outside a convex
 * polygon the nearest point then lies on that edge or one of its two end points: another edge's
 * normal is farther in angle from the direction to the nearest point, and its line passes farther
 * behind it. So the face-or-vertex decision looks at that edge only, and costs one square root.
 * Returns whether they overlap; fills out (normal from polygon to circle, negated when flip) when
 * out is not NULL. */
int c2d_circle_polygon(c2d_vec2 c, double r, const c2d_core *p, c2d_contact *out, int flip)
{
    const c2d_vec2 *v = p->v, *nv = p->n;
    int n = p->count, e = 0;
    double s = -INFINITY;
    for (int i = 0; i < n; i++) {
        double si = v2_dot(nv[i], v2_sub(c, v[i]));
        if (si > r) {
            if (out)
                no_contact(out);
            return 0;
        }
        /* Written as selects, so the compiler can keep the loop free of unpredictable branches. */
        e = si > s ? i : e;
        s = si > s ? si : s;
    }
    return c2d_circle_polygon_from(c, r, p, e, s, out, flip);
}

int c2d_circle_polygon_from(c2d_vec2 c, double r, const c2d_core *p, int e, double s, c2d_contact *out, int flip)
{
    const c2d_vec2 *v = p->v, *nv = p->n;
    int n = p->count;
    c2d_vec2 nrm = nv[e], q = c;
    double depth = r - s;
    int face = 1;
    if (s > 0) {
        /* Centre outside edge e: in a vertex's region when it is behind either end along the edge. */
        c2d_vec2 p1 = v[e], p2 = v[e + 1 == n ? 0 : e + 1], t = v2_sub(p2, p1);
        int vertex = 1, k = e, dir = -1;
        if (v2_dot(v2_sub(c, p1), t) > 0) {
            k = e + 1 == n ? 0 : e + 1;
            dir = 1;
            vertex = v2_dot(v2_sub(c, p2), t) >= 0;
        }
        if (vertex) {
            /* Where the edges at a corner are nearly collinear, rounding can make the neighbour beyond
             * the corner look less separated than edge e although the centre's nearest point lies on
             * it (a polygon with one far vertex and a circle a billion wide). So walk on past the
             * corner while the next edge comes closer: the distance is unimodal along the boundary,
             * and the walk usually stops at its first step. */
            double best = v2_len2(v2_sub(c, v[k]));
            for (int step = 1; step < n; step++) {
                int f = dir > 0 ? k : (k == 0 ? n - 1 : k - 1); /* the edge leaving k away from e */
                int far = dir > 0 ? (k + 1 == n ? 0 : k + 1) : f;
                c2d_vec2 a = v[f], ab = v2_sub(v[f + 1 == n ? 0 : f + 1], a);
                double len2 = v2_len2(ab), u = len2 > 0 ? v2_dot(v2_sub(c, a), ab) / len2 : 0;
                if (u > 0 && u < 1) {
                    double sf = v2_dot(nv[f], v2_sub(c, a));
                    /* The face of edge f is nearer than corner k; or the centre is on f's inner side,
                     * within its extent, where only a corner that rounding bent a hair inwards (a
                     * near-collinear corner of a sliver a billion long) puts a point outside edge e:
                     * the centre is then inside, by f. */
                    if (sf <= 0 || sf * sf < best) {
                        vertex = 0;
                        e = f;
                        s = sf;
                        nrm = nv[f];
                        depth = r - s;
                    }
                    break;
                }
                double d2 = v2_len2(v2_sub(c, v[far]));
                if (!(d2 < best))
                    break;
                best = d2;
                k = far;
            }
            if (!vertex && s > r) {
                if (out)
                    no_contact(out);
                return 0;
            }
        }
        if (vertex) {
            c2d_vec2 w = v[k], d = v2_sub(c, w);
            if (!v2_within(d, r)) {
                if (out)
                    no_contact(out);
                return 0;
            }
            if (!out)
                return 1;
            double dist = v2_len_safe(d);
            /* A centre (nearly) on the vertex defines no direction: the edge's normal stands. */
            if (dist > near_face_tol(r, c)) {
                /* v2_normalize_or without its second square root, unless the length is extreme. */
                nrm = dist > 1e-150 && dist < 1e150 ? v2(d.x / dist, d.y / dist) : v2_normalize_or(d, nrm);
                depth = r - dist;
                q = w;
                face = 0;
            }
        }
    }
    if (!out)
        return 1;
    /* Centre inside (s <= 0: out through the nearest edge) or in edge e's face region: the nearest
     * point is the centre's foot on the edge line. */
    if (face)
        q = v2_mad(c, -s, nrm);
    c2d_vec2 point = v2_mid(q, v2_mad(c, -r, nrm));
    one_point(out, flip ? v2_neg(nrm) : nrm, depth, point);
    return 1;
}

/* Picks which face carries the manifold when both cores offer one with equal separation, so that
 * swapping the arguments picks the same physical face (and the normal just flips). */
static int prefer_first(c2d_vec2 na, c2d_vec2 nb)
{
    if (fabs(na.x) != fabs(nb.x))
        return fabs(na.x) > fabs(nb.x);
    return fabs(na.y) >= fabs(nb.y);
}

/* For cores apart (radii reaching across): the clipped ends must include the closest features, at
 * the full depth. When the face's slab holds only far parts of the incident edge (an edge nearly
 * square to the face, one that misses the slab, or a face taken as "near" only because the radii
 * are huge), the closest points pa, pb themselves make the contact, along out->normal. */
static void keep_closest(c2d_contact *out, const c2d_core *a, const c2d_core *b, c2d_vec2 pa, c2d_vec2 pb,
                         double deepest_sep)
{
    double deepest = out->count == 0   ? -INFINITY
                     : out->count == 1 ? out->point_depths[0]
                                       : c2d_maxd(out->point_depths[0], out->point_depths[1]);
    double reach = a->radius + b->radius, tol = C2D_CLIP_TOL * (reach + fabs(pa.x) + fabs(pa.y));
    /* Depths are clamped at 0, so an end far beyond the reach shows only in its separation. An end
     * deeper than the cores' distance allows (a face that only looks parallel to n because the gap
     * is a few denormals, whose squares vanish) is no contact point either. */
    if (deepest >= out->depth - tol && deepest_sep <= reach + tol && deepest_sep >= reach - out->depth - tol)
        return;
    c2d_vec2 n = out->normal;
    out->count = 1;
    out->points[0] = v2_mid(v2_mad(pa, a->radius, n), v2_mad(pb, -b->radius, n));
    out->point_depths[0] = out->depth;
    out->points[1] = v2(0, 0);
    out->point_depths[1] = 0;
}

void c2d_collide_cores(const c2d_core *a, const c2d_core *b, c2d_contact *out)
{
    /* Circle against polygon first: that path writes the whole result itself. */
    if (a->count == 1 && b->count >= 3 && b->radius == 0) {
        c2d_circle_polygon(a->v[0], a->radius, b, out, 1);
        return;
    }
    if (b->count == 1 && a->count >= 3 && a->radius == 0) {
        c2d_circle_polygon(b->v[0], b->radius, a, out, 0);
        return;
    }
    double reach = a->radius + b->radius;
    memset(out, 0, sizeof *out);
    if (a->count == 1 && b->count == 1) {
        c2d_vec2 d = v2_sub(b->v[0], a->v[0]);
        /* The same comparison as c2d_overlap_cores, so the two never disagree at touching. */
        if (!v2_within(d, reach))
            return;
        double dist = v2_len_safe(d);
        c2d_vec2 n = v2_normalize_or(d, v2(0, 1));
        out->normal = n;
        /* The root of a rounded square may pass the reach by an ulp: that is touching, at depth 0. */
        out->depth = fmax(0.0, reach - dist);
        out->count = 1;
        out->points[0] = v2_mid(v2_mad(a->v[0], a->radius, n), v2_mad(b->v[0], -b->radius, n));
        out->point_depths[0] = out->depth;
        return;
    }
    int ea, eb;
    double sa = separation_until(a, b, reach, &ea);
    if (sa > reach)
        return;
    double sb = separation_until(b, a, reach, &eb);
    if (sb > reach)
        return;
    c2d_collide_cores_sat(a, b, sa, ea, sb, eb, NULL, out);
}

void c2d_collide_cores_sat(const c2d_core *a, const c2d_core *b, double sa, int ea, double sb, int eb,
                           const c2d_closest *cl, c2d_contact *out)
{
    double reach = a->radius + b->radius;
    /* c2d_maxd, not the libm call: no NaN reaches here, and for numbers both are x > y ? x : y. */
    double s = c2d_maxd(c2d_maxd(sa, sb), flat_gap(a, b));
    if (s > 0) {
        /* Cores apart, radii reaching across: the closest features give the normal. */
        c2d_vec2 pa, pb;
        double d;
        if (cl) {
            pa = cl->pa;
            pb = cl->pb;
            d = cl->d;
        } else {
            d = c2d_core_distance(a, b, &pa, &pb);
        }
        if (d > reach)
            return;
        if (d <= near_face_tol(reach, pa)) {
            /* The closest points sit (nearly) on the best face: its normal is exact to within the
             * tolerance, and their direction would not be. The face's separation s is rounding away
             * from the cores' distance d <= reach: where it passes the reach (cores of radius 0 with
             * a shared end point, s a few ulps above 0) they touch, at depth 0. */
            out->depth = s < reach ? reach - s : 0.0;
            double sep;
            if (sa >= sb) {
                out->normal = a->n[ea];
                sep = clip_faces(a, ea, b, a->n[ea], out);
            } else {
                sep = clip_faces(b, eb, a, b->n[eb], out);
                out->normal = v2_neg(b->n[eb]);
            }
            keep_closest(out, a, b, pa, pb, sep);
            return;
        }
        c2d_vec2 n = v2_normalize_or(v2_sub(pb, pa), v2(0, 1));
        int fa = -1, fb = -1;
        double best_a = C2D_FACE_COS, best_b = C2D_FACE_COS;
        for (int i = 0; i < c2d_core_edges(a); i++)
            if (v2_dot(a->n[i], n) >= best_a) {
                best_a = v2_dot(a->n[i], n);
                fa = i;
            }
        for (int i = 0; i < c2d_core_edges(b); i++)
            if (-v2_dot(b->n[i], n) >= best_b) {
                best_b = -v2_dot(b->n[i], n);
                fb = i;
            }
        /* The normal stays the exact closest-feature direction; a face (nearly) parallel to it only
         * lends its clipped ends as contact points, measured along n. */
        out->depth = reach - d;
        out->normal = n;
        double sep = -INFINITY;
        if (fa >= 0 && (fb < 0 || best_a >= best_b))
            sep = clip_faces(a, fa, b, n, out);
        else if (fb >= 0)
            sep = clip_faces(b, fb, a, v2_neg(n), out);
        keep_closest(out, a, b, pa, pb, sep);
        return;
    }
    /* Cores overlap (or touch): the axis of least penetration is the reference face. */
    out->depth = reach - s;
    int use_a = c2d_core_edges(b) == 0 ||
                (c2d_core_edges(a) > 0 && (sa > sb || (sa == sb && prefer_first(a->n[ea], b->n[eb]))));
    double sep;
    if (use_a) {
        out->normal = a->n[ea];
        sep = clip_faces(a, ea, b, a->n[ea], out);
    } else {
        sep = clip_faces(b, eb, a, b->n[eb], out);
        out->normal = v2_neg(b->n[eb]);
    }
    if (sep > reach + C2D_CLIP_TOL * (reach + fabs(out->points[0].x) + fabs(out->points[0].y))) {
        /* Every clipped end is beyond reach: the face's slab holds only far parts of the incident
         * edge (cores crossing by a few denormals, where a clip's fraction is 1/2 of nothing). The
         * closest points of the cores make the contact. */
        c2d_vec2 pa, pb;
        c2d_core_distance(a, b, &pa, &pb);
        keep_closest(out, a, b, pa, pb, sep);
    }
}

int c2d_overlap_cores(const c2d_core *a, const c2d_core *b)
{
    double reach = a->radius + b->radius;
    if (a->count == 1 && b->count == 1)
        return v2_within(v2_sub(b->v[0], a->v[0]), reach);
    if (a->count == 1 && b->count >= 3 && b->radius == 0)
        return c2d_circle_polygon(a->v[0], a->radius, b, NULL, 0);
    if (b->count == 1 && a->count >= 3 && a->radius == 0)
        return c2d_circle_polygon(b->v[0], b->radius, a, NULL, 0);
    int e;
    double sa = separation_until(a, b, reach, &e);
    if (sa > reach)
        return 0;
    double sb = separation_until(b, a, reach, &e);
    if (sb > reach)
        return 0;
    if (fmax(fmax(sa, sb), flat_gap(a, b)) <= 0)
        return 1;
    c2d_vec2 pa, pb;
    return c2d_core_distance(a, b, &pa, &pb) <= reach;
}

int c2d_cores_apart(const c2d_core *a, const c2d_core *b, c2d_vec2 *pa, c2d_vec2 *pb, double *d)
{
    int e;
    if (!(a->count == 1 && b->count == 1) && separation_until(a, b, 0.0, &e) <= 0 &&
        separation_until(b, a, 0.0, &e) <= 0 && flat_gap(a, b) <= 0)
        return 0;
    *d = c2d_core_distance(a, b, pa, pb);
    return *d > near_face_tol(a->radius + b->radius, *pa);
}

c2d_vec2 c2d_best_face_normal(const c2d_core *a, const c2d_core *b)
{
    int ea, eb;
    double sa = separation_until(a, b, INFINITY, &ea), sb = separation_until(b, a, INFINITY, &eb);
    if (c2d_core_edges(a) == 0 && c2d_core_edges(b) == 0)
        return v2(0, 1);
    return sa >= sb ? a->n[ea] : v2_neg(b->n[eb]);
}
