/* sweep.c - time of impact: the moving point against a rounded hull (offset edges plus corner circles,
 * solved in parametric form), the Minkowski difference that turns any pair of moving shapes into that
 * problem, normal cones for seam checks, and the public c2d_sweep. */
#include "sweep.h"

#include <string.h>

#include <stdlib.h>

/* ---- normal cones ------------------------------------------------------------------------------ */

int c2d_cone_contains(const c2d_cone *c, c2d_vec2 n)
{
    if (c->kind == C2D_CONE_FULL)
        return 1;
    if (c->kind == C2D_CONE_EMPTY)
        return 0;
    if (c->kind == C2D_CONE_RAYS)
        return (fabs(v2_cross(c->lo, n)) <= C2D_CONE_EPS && v2_dot(c->lo, n) > 0) ||
               (fabs(v2_cross(c->hi, n)) <= C2D_CONE_EPS && v2_dot(c->hi, n) > 0);
    /* The two cross tests alone also admit -lo when the cone is a single direction; the dot test
     * rules that out and is always true inside a cone at most a half-turn wide. */
    return v2_cross(c->lo, n) >= -C2D_CONE_EPS && v2_cross(n, c->hi) >= -C2D_CONE_EPS &&
           v2_dot(n, v2_add(c->lo, c->hi)) >= -C2D_CONE_EPS;
}

/* A direction strictly inside the arc (its bisector; the left normal of lo for a half-turn). */
static c2d_vec2 cone_middle(const c2d_cone *c)
{
    c2d_vec2 m = v2_add(c->lo, c->hi);
    double l = v2_len(m);
    if (l > 1e-6)
        return v2_scale(m, 1.0 / l);
    return v2(-c->lo.y, c->lo.x);
}

/* The rays of x (two opposite ones) that lie in c: both (x itself), one (as a single direction) or none. */
static c2d_cone rays_within(c2d_cone x, const c2d_cone *c)
{
    int lo = c2d_cone_contains(c, x.lo), hi = c2d_cone_contains(c, x.hi);
    if (lo && hi)
        return x;
    if (lo || hi) {
        x.kind = C2D_CONE_ARC;
        x.lo = x.hi = lo ? x.lo : x.hi;
        return x;
    }
    x.kind = C2D_CONE_EMPTY;
    x.lo = x.hi = v2(0, 0);
    return x;
}

c2d_cone c2d_cone_intersect(c2d_cone a, c2d_cone b)
{
    if (a.kind == C2D_CONE_EMPTY || b.kind == C2D_CONE_FULL)
        return a;
    if (b.kind == C2D_CONE_EMPTY || a.kind == C2D_CONE_FULL)
        return b;
    if (a.kind == C2D_CONE_RAYS)
        return rays_within(a, &b);
    if (b.kind == C2D_CONE_RAYS)
        return rays_within(b, &a);
    c2d_cone r;
    r.kind = C2D_CONE_ARC;
    /* Each end of the intersection is an end of one cone lying inside the other. */
    if (c2d_cone_contains(&b, a.lo))
        r.lo = a.lo;
    else if (c2d_cone_contains(&a, b.lo))
        r.lo = b.lo;
    else
        r.kind = C2D_CONE_EMPTY;
    if (c2d_cone_contains(&b, a.hi))
        r.hi = a.hi;
    else if (c2d_cone_contains(&a, b.hi))
        r.hi = b.hi;
    else
        r.kind = C2D_CONE_EMPTY;
    if (r.kind == C2D_CONE_EMPTY) {
        r.lo = r.hi = v2(0, 0);
        return r;
    }
    /* Two half-turns facing apart meet in two opposite rays; the ends test cannot see that, the
     * middle test can. That is where two surfaces of no thickness meet in line (the segments of a
     * chain at a joint where it runs straight on): each side's face goes on across the point, so
     * its normal is surface there, as the single normal at the flat joint of two tiles is. Keeping
     * neither hid the joint from both sides, and a box lying flat on a chain, whose face meets the
     * joint where rounding orders the two faces' normals, went into it. */
    c2d_vec2 m = cone_middle(&r);
    if (!c2d_cone_contains(&a, m) || !c2d_cone_contains(&b, m))
        r.kind = v2_dot(r.lo, r.hi) < 0 ? C2D_CONE_RAYS : C2D_CONE_EMPTY;
    if (r.kind == C2D_CONE_EMPTY)
        r.lo = r.hi = v2(0, 0);
    return r;
}

c2d_cone c2d_core_vertex_cone(const c2d_vec2 *normals, int count, int i)
{
    c2d_cone c;
    if (count < 2) {
        c.kind = C2D_CONE_FULL;
        c.lo = c.hi = v2(0, 0);
        return c;
    }
    c.kind = C2D_CONE_ARC;
    c.lo = normals[(i + count - 1) % count];
    c.hi = normals[i];
    return c;
}

/* ---- Minkowski difference ---------------------------------------------------------------------- */

/* A hull edge's normal from its placed ends is kept while within this sine of its shape's own normal:
 * it is then within a tenth of C2D_CONE_EPS of the truth, and the cone of a corner between two such
 * edges (even a sliver's tip, whose edges are a hair from opposite, or a vertex that goes on almost
 * straight) faces the way the shape's does. The placed direction of an edge is off by about an ulp of
 * its coordinates over its length, so an edge keeps it for certain only where it is some 1e13 ulps
 * long (0.1 to 0.2% of its distance from the origin): the shapes near the origin of the determinism
 * scenes keep their bits, but a box 0.4 wide at 6e4 may well take its own normals (and, so that the
 * hull's order agrees with them, is merged by them: a_edge_dir). */
#define C2D_HULL_NORMAL_SINE 1e-13

/* 0 for directions in [0, pi), 1 for [pi, 2 pi): the first key of the angular merge. */
static int half_turn(c2d_vec2 e)
{
    return e.y < 0 || (e.y <= 0 && e.x < 0);
}

/* Index of the lowest vertex (least y, then least x) of sign * p: where both merged edge sequences
 * start with angle 0. */
static int lowest_vertex(const c2d_vec2 *p, int n, double sign)
{
    int best = 0;
    for (int i = 1; i < n; i++) {
        double y = sign * p[i].y, by = sign * p[best].y;
        if (y < by || (y <= by && sign * p[i].x < sign * p[best].x))
            best = i;
    }
    return best;
}

/* The direction of B's edge k, from its outward normal (counter-clockwise core). */
static inline c2d_vec2 b_edge_dir(const c2d_vec2 *bnrm, int k)
{
    return v2(-bnrm[k].y, bnrm[k].x);
}

/* The direction of -A's edge j (placed: eq = av[j] - av[j + 1]) that the angular merge orders it by,
 * in *dir: the direction of the normal its hull edge will carry. That is A's own normal (turned into
 * the world and negated) where the placed one strays from it beyond C2D_HULL_NORMAL_SINE, as the
 * normals of the hull are chosen below (returns 1), else the placed direction (returns 0). B's edges
 * are ordered by B's own normals; ordering -A's by placed directions while their hull edges took A's
 * own normals put an edge of -A and a parallel edge of B (a box lying on a segment, turned with it to
 * within the rounding of its place) in one order and gave them normals in the other: the hull turned
 * back by a hair between them, the ray entered through -A's edge at B's vertex, whose seam cone
 * (holding B's normal exactly) refused A's normal beyond it, and a box sliding along a chain went
 * through it. (The hull edge's ends round eq once more, so at the threshold this test and the one below
 * may differ; order and normals then disagree by under 2e-13, a fifth of C2D_CONE_EPS.) */
static int a_edge_dir(c2d_vec2 eq, const c2d_vec2 *anrm, int j, c2d_vec2 *dir)
{
    *dir = eq;
    if (!anrm)
        return 0;
    c2d_vec2 src = v2_neg(anrm[j]);
    c2d_vec2 placed = v2_normalize_or(v2_right(eq), v2(0, 0));
    if (v2_dot(placed, src) > 0 && !(fabs(v2_cross(placed, src)) > C2D_HULL_NORMAL_SINE))
        return 0;
    *dir = v2(-src.y, src.x);
    return 1;
}

/* Where -A's edges start in the merge: the vertex at which the directions they are merged by turn
 * from the lower half-turn to the upper. Where all of them are placed directions that is -A's lowest
 * vertex (A's highest), as before; where A's own directions stand in for some, placed vertices alone
 * cannot tell it (a sliver's edge, flat once placed, may run a hair below angle 0). Edges of no
 * length are stepped over by the merge, so they take no part here either. */
static int a_start(const c2d_vec2 *av, const c2d_vec2 *anrm, int an)
{
    int own = 0, prev = -1;
    for (int k = 0; k < an; k++) {
        c2d_vec2 eq = v2_sub(av[k], av[(k + 1) % an]), dir;
        if (eq.x == 0 && eq.y == 0)
            continue;
        own |= a_edge_dir(eq, anrm, k, &dir);
        prev = k;
    }
    if (!own)
        return lowest_vertex(av, an, -1.0);
    c2d_vec2 pdir;
    a_edge_dir(v2_sub(av[prev], av[(prev + 1) % an]), anrm, prev, &pdir);
    for (int k = 0; k < an; k++) {
        c2d_vec2 eq = v2_sub(av[k], av[(k + 1) % an]), dir;
        if (eq.x == 0 && eq.y == 0)
            continue;
        a_edge_dir(eq, anrm, k, &dir);
        if (!half_turn(dir) && half_turn(pdir))
            return k;
        pdir = dir;
    }
    return lowest_vertex(av, an, -1.0);
}

/* Which edge the angular merge takes next: 1 B's (direction ep), 2 -A's (eq), 3 both (parallel). */
static inline int merge_step(c2d_vec2 ep, c2d_vec2 eq)
{
    int hp = half_turn(ep), hq = half_turn(eq);
    double c = v2_cross(ep, eq);
    if (hp != hq)
        return hp < hq ? 1 : 2;
    return c > 0 ? 1 : (c < 0 ? 2 : 3);
}

/* The outward normal of the edge a hull edge k comes from (v[k] to v[k + 1]): B's edge, or minus A's
 * (-A's edges run the same way as A's, turned by a half-turn); zero when the shapes give none. */
static c2d_vec2 source_normal(const c2d_vec2 *bnrm, int bn, const c2d_vec2 *anrm, int an, const int *bvert,
                              const int *avert, int m, int k)
{
    int k1 = (k + 1) % m;
    if (bvert[k] != bvert[k1] && bn >= 2)
        return bnrm[bvert[k]];
    if (avert[k] != avert[k1] && an >= 2 && anrm)
        return v2_neg(anrm[avert[k]]);
    return v2(0, 0);
}

int c2d_minkowski(const c2d_vec2 *bv, const c2d_vec2 *bnrm, int bn, const c2d_vec2 *av, const c2d_vec2 *anrm, int an,
                  c2d_vec2 *v, c2d_vec2 *nrm, int *bvert, int *avert)
{
    int m = 0;
    if (an == 1 || bn == 1) {
        int n = an == 1 ? bn : an;
        for (int k = 0; k < n; k++) {
            int i = an == 1 ? k : 0, j = an == 1 ? 0 : k;
            v[m] = v2_sub(bv[i], av[j]);
            bvert[m] = i;
            avert[m] = j;
            m++;
        }
    } else {
        /* Merge the edges of B and of -A by angle (both counter-clockwise): the classic O(n + m)
         * convex sum. -A's lowest vertex is A's highest. Parallel edges merge into one. */
        /* B's edges run in the angle order of their normals, which its shape keeps exactly even where
         * placing rounded its vertices together (a rectangle thinner than the spacing of doubles:
         * edges of no length, or of a length whose direction is all rounding). They start at the
         * corner where their directions turn from the lower half-turn to the upper. */
        int i0 = -1, j0 = a_start(av, anrm, an);
        for (int k = 0, prev = bn - 1; k < bn && i0 < 0; prev = k++)
            if (!half_turn(b_edge_dir(bnrm, k)) && half_turn(b_edge_dir(bnrm, prev)))
                i0 = k;
        if (i0 < 0)
            i0 = lowest_vertex(bv, bn, 1.0);
        int i = 0, j = 0;
        while (i < bn || j < an) {
            int ci = (i0 + i) % bn, cj = (j0 + j) % an;
            v[m] = v2_sub(bv[ci], av[cj]);
            bvert[m] = ci;
            avert[m] = cj;
            m++;
            c2d_vec2 eq = v2_sub(av[cj], av[(cj + 1) % an]);
            int step;
            if (i == bn) {
                step = 2;
            } else if (j == an) {
                step = 1;
            } else if (eq.x == 0 && eq.y == 0) {
                /* An edge of A with no length (a rectangle thinner than the spacing of doubles) has
                 * no angle to merge by: step over it, so the real edges keep their order. */
                step = 2;
            } else {
                c2d_vec2 dq;
                a_edge_dir(eq, anrm, cj, &dq);
                step = merge_step(b_edge_dir(bnrm, ci), dq);
            }
            if (step & 1)
                i++;
            if (step & 2)
                j++;
        }
    }
    if (m >= 2) {
        int degenerate = 0;
        for (int k = 0; k < m; k++) {
            c2d_vec2 e = v2_sub(v[(k + 1) % m], v[k]);
            nrm[k] = v2_normalize_or(v2_right(e), v2(0, 0));
            degenerate += nrm[k].x == 0 && nrm[k].y == 0;
            /* Each hull edge is an edge of B or of -A, and its normal is that edge's: computed in the
             * shape's own frame, only turned into the world. The one from the placed vertices agrees
             * to rounding wherever the edge is long beside the rounding of its ends; where it is not
             * (a shape thinner than the spacing of doubles at its place: a sliver, which placing can
             * even turn clockwise), the direction between them is noise. It faced inwards, or turned
             * a sliver tip's corner cone the wrong way, and a ball then passed through the sliver
             * unseen. Such an edge takes its shape's normal. */
            c2d_vec2 src = source_normal(bnrm, bn, anrm, an, bvert, avert, m, k);
            if ((nrm[k].x != 0 || nrm[k].y != 0) && (src.x != 0 || src.y != 0) &&
                (!(v2_dot(nrm[k], src) > 0) || fabs(v2_cross(nrm[k], src)) > C2D_HULL_NORMAL_SINE))
                nrm[k] = src;
        }
        /* Every placed vertex the same point (cores collapsed below the spacing of doubles): the
         * difference is that point, and edges with made-up normals would call it inside. */
        if (degenerate == m)
            return 1;
        /* An edge whose placed ends coincide (from a rectangle thinner than the spacing of doubles
         * at its coordinates) has no direction of its own: it gets the middle of the turn between
         * its neighbours' normals, which is its true normal for such a rectangle. */
        for (int k = 0; degenerate && m >= 3 && k < m; k++) {
            if (nrm[k].x != 0 || nrm[k].y != 0)
                continue;
            c2d_vec2 prev = v2(0, 0), next = v2(0, 0);
            for (int j = 1; j < m && prev.x == 0 && prev.y == 0; j++)
                prev = nrm[(k + m - j) % m];
            for (int j = 1; j < m && next.x == 0 && next.y == 0; j++)
                next = nrm[(k + j) % m];
            c2d_vec2 mid = v2_add(prev, next);
            nrm[k] = v2_len(mid) > 1e-6 ? v2_normalize_or(mid, v2(0, 1)) : v2(-prev.y, prev.x);
            if (prev.x == 0 && prev.y == 0)
                nrm[k] = v2(0, 1);
        }
        for (int k = 0; k < m; k++)
            if (nrm[k].x == 0 && nrm[k].y == 0)
                nrm[k] = v2(0, 1);
    }
    return m;
}

/* ---- the rounded hull --------------------------------------------------------------------------- */

static int hull_bvert(const c2d_rhull *h, int k)
{
    return h->bvert ? h->bvert[k] : k;
}
static int hull_avert(const c2d_rhull *h, int k)
{
    return h->avert ? h->avert[k] : 0;
}

int c2d_rhull_feature_is_surface(const c2d_rhull *h, const c2d_seam_info *seams, int k, int is_edge,
                                 c2d_vec2 normal)
{
    if (!seams)
        return 1;
    int b0 = hull_bvert(h, k);
    if (is_edge) {
        int b1 = hull_bvert(h, (k + 1) % h->n);
        /* A hull edge from an edge of B is that edge (B's edge b0 runs from b0 to b0 + 1); one from an
         * edge of A touches B at its vertex b0, so B's corner decides. */
        if (b0 != b1)
            return !(seams->ghost_edge && seams->ghost_edge[b0]);
    }
    return !seams->vcone || c2d_cone_contains(&seams->vcone[b0], normal);
}

int c2d_rhull_cast(const c2d_rhull *h, const c2d_seam_info *seams, c2d_vec2 o, c2d_vec2 d, double tmax, double tol,
                   c2d_rhull_hit *hit)
{
    int n = h->n, found = 0;
    double best = tmax, r = h->r;
    double dlen = v2_len(d);
    if (!(dlen > 0))
        return 0;
    double approach = -C2D_SWEEP_DIR_TOL * dlen;
    /* The earliest hit at the end of an edge whose line the ray meets just past that end (see below):
     * taken only when no other feature takes the ray about as early. */
    int end_found = 0;
    c2d_rhull_hit end_hit;
    end_hit.t = 0;
    if (n >= 2) {
        for (int k = 0; k < n; k++) {
            c2d_vec2 nk = h->nrm[k];
            double dn = v2_dot(d, nk);
            if (!(dn < approach))
                continue;
            double s0 = v2_dot(v2_sub(o, h->v[k]), nk) - r;
            if (s0 < -tol)
                continue; /* behind this edge's line: the ray can only enter elsewhere */
            double t = s0 > 0 ? s0 / -dn : 0.0;
            /* Along the edge's unit direction (from its normal): an edge shorter than about 1e-154
             * has a squared length that underflows, and one of length 0 would accept a hit
             * anywhere on its line. */
            c2d_vec2 tg = v2(-nk.y, nk.x);
            double len = v2_dot(v2_sub(h->v[(k + 1) % n], h->v[k]), tg);
            double u = v2_dot(v2_sub(v2_mad(o, t, d), h->v[k]), tg);
            if (u < -tol || u > len + tol) {
                /* Past an end of the edge. At a grazing angle that may be rounding alone: the error
                 * of s0 (about 1e-16 of the coordinates) moves the crossing along the edge by itself
                 * over the sine of the angle, 1.5e-7 at coordinates of 5e4 and an angle of 1.7e-5,
                 * beyond tol. The ray then passes within rounding of the edge's end, and the feature
                 * beyond that end must take it; but where that is a seam (a box's side meeting a
                 * chain's joint from the concave side, whose cone holds no normal there) nothing
                 * did, and a box sliding along one segment went into the next, a hair steeper.
                 * So when the ray passes within tol of the edge's end moving into the hull there
                 * (into this edge, and for a sharp corner into the next edge too: otherwise it only
                 * grazes round the corner), the end of this edge, surface up to its end, takes it:
                 * at the ray's nearest point to that end, within tol of the surface. */
                int far_end = u > len;
                c2d_vec2 pe = v2_mad(h->v[far_end ? (k + 1) % n : k], r, nk);
                double tc = v2_dot(v2_sub(pe, o), d) / (dlen * dlen);
                if (!(tc > 0))
                    tc = 0.0;
                if (tc > tmax || (end_found && !(tc < end_hit.t)))
                    continue;
                if (!(v2_len(v2_sub(v2_mad(o, tc, d), pe)) <= tol))
                    continue;
                if (!(r > 0)) {
                    int j = far_end ? (k + 1) % n : (k + n - 1) % n;
                    if (!(v2_dot(d, h->nrm[j]) < approach))
                        continue;
                }
                if (!c2d_rhull_feature_is_surface(h, seams, k, 1, nk))
                    continue;
                end_found = 1;
                end_hit.t = tc;
                end_hit.normal = nk;
                end_hit.k = k;
                end_hit.is_edge = 1;
                continue;
            }
            if (t > best)
                continue;
            if (!c2d_rhull_feature_is_surface(h, seams, k, 1, nk))
                continue;
            /* At a sharp corner (no radius), a path that runs along the line of the edge beyond the
             * corner only grazes the hull: it goes on along that edge's surface and never enters. A box
             * sliding on one ledge meets the next ledge, level with it, corner to corner, and slides
             * on over its top instead of stopping at its side. */
            if (!(r > 0) && (u > len - tol || u < tol)) {
                int j = u > len - tol ? (k + 1) % n : (k + n - 1) % n;
                c2d_vec2 q = v2_mad(o, t, d);
                if (fabs(v2_dot(v2_sub(q, h->v[j]), h->nrm[j])) <= tol && !(v2_dot(d, h->nrm[j]) < approach))
                    continue;
            }
            if (t < best || !found) {
                best = t;
                hit->t = t;
                hit->normal = nk;
                hit->k = k;
                hit->is_edge = 1;
                found = 1;
            }
        }
    }
    if (r > 0) {
        double a = v2_len2(d);
        for (int k = 0; k < n; k++) {
            /* Hull corners at the same point (a shape far smaller than the spacing of doubles at the
             * hull's coordinates, whose corners merged) are one corner: the union of their cones, and
             * surface where any of their shape's corners is. The run's first vertex (k to k1) answers
             * for it, vertex 0 when every vertex coincides: O(n) in all. */
            int k1 = k;
            if (n >= 2) {
                int inside_run = v2_eq(h->v[(k + n - 1) % n], h->v[k]);
                if (inside_run && k > 0)
                    continue;
                int run = 1;
                while (run < n && v2_eq(h->v[(k1 + 1) % n], h->v[k])) {
                    k1 = (k1 + 1) % n;
                    run++;
                }
                if (inside_run && run < n)
                    continue; /* vertex 0 inside a run that started before it */
            }
            /* |o + t d - v|^2 = r^2 in parametric form: no slopes, so vertical paths need no special
             * case (the seed's k = dy/dx breaks there). The smaller root is c / (-b + sqrt(disc)),
             * which never cancels. */
            c2d_vec2 f = v2_sub(o, h->v[k]);
            double b = v2_dot(f, d);
            if (!(b < 0))
                continue;
            double c = v2_len2(f) - r * r;
            double t;
            if (c <= 0) {
                t = 0.0; /* within tolerance of the circle (deeper starts are the caller's overlap) */
            } else {
                /* b^2 - a c, from the offset p of the corner from the path's line: far from the
                 * corner the two products are huge and nearly equal, and their difference is noise. */
                c2d_vec2 p = v2_mad(f, -b / a, d);
                p = v2_mad(p, -v2_dot(p, d) / a, d);
                double disc = a * (r * r - v2_dot(p, p));
                if (disc < 0)
                    continue;
                double den = -b + sqrt(disc);
                /* t = c / den would exceed best: decided without dividing, with room for the rounding
                 * of the product, so that a t equal to best (a corner met at the very time another
                 * shape's was, the tie the caller gives the lowest index) is never turned away here
                 * by an ulp: which of two shapes met at once a ball reported hung on the order the
                 * set's grid listed them in, and that on a far member. */
                if (!(c < best * den * (1 + 0x1p-50)))
                    continue;
                t = c / den;
            }
            if (t > best)
                continue;
            c2d_vec2 nh = v2_normalize_or(v2_mad(f, t, d), v2_scale(d, -1.0 / dlen));
            if (!(v2_dot(d, nh) < approach))
                continue; /* a graze: the path only touches the circle, as along a flat joint */
            int own = n < 2, surface = -1;
            for (int j = k;; j = (j + 1) % n) {
                if (n >= 2 && !own) {
                    c2d_cone cone = c2d_core_vertex_cone(h->nrm, n, j);
                    own = c2d_cone_contains(&cone, nh);
                }
                if (surface < 0 && c2d_rhull_feature_is_surface(h, seams, j, 0, nh))
                    surface = j;
                if (j == k1)
                    break;
            }
            if (!own)
                continue; /* inside the strip of an edge: that edge's offset line decides */
            if (surface < 0)
                continue;
            if (seams && seams->vcone) {
                /* A corner whose surface is a single direction is a flat joint: the hit there is the
                 * face's, with the face's exact normal rather than one off by rounding. */
                const c2d_cone *vc = &seams->vcone[hull_bvert(h, surface)];
                if (vc->kind == C2D_CONE_ARC && fabs(v2_cross(vc->lo, vc->hi)) <= C2D_CONE_EPS &&
                    v2_dot(vc->lo, vc->hi) > 0)
                    nh = vc->lo;
                else if (vc->kind == C2D_CONE_RAYS)
                    nh = v2_dot(nh, vc->lo) >= v2_dot(nh, vc->hi) ? vc->lo : vc->hi;
            }
            if (t < best || !found) {
                best = t;
                hit->t = t;
                hit->normal = nh;
                hit->k = surface;
                hit->is_edge = 0;
                found = 1;
            }
        }
    }
    /* An edge's end takes the ray only where no feature took it earlier or within tol of travel of
     * it: there the exact decision was the other feature's. */
    if (end_found && (!found || end_hit.t + tol / dlen < best)) {
        *hit = end_hit;
        found = 1;
    }
    return found;
}

double c2d_rhull_signed_distance(const c2d_rhull *h, c2d_vec2 p, c2d_rhull_hit *feature)
{
    int n = h->n;
    feature->t = 0;
    if (n == 1) {
        c2d_vec2 f = v2_sub(p, h->v[0]);
        feature->k = 0;
        feature->is_edge = 0;
        feature->normal = v2_normalize_or(f, v2(0, 1));
        return v2_len(f) - h->r;
    }
    if (n >= 3) {
        int kmax = 0;
        double smax = -INFINITY;
        for (int k = 0; k < n; k++) {
            double s = v2_dot(v2_sub(p, h->v[k]), h->nrm[k]);
            if (s > smax) {
                smax = s;
                kmax = k;
            }
        }
        if (smax <= 0) {
            feature->k = kmax;
            feature->is_edge = 1;
            feature->normal = h->nrm[kmax];
            return smax - h->r;
        }
    }
    /* Outside the core (or a 2-vertex core): the nearest point of the boundary. */
    double best = INFINITY;
    int edges = n == 2 ? 1 : n;
    for (int k = 0; k < edges; k++) {
        c2d_vec2 a = h->v[k], b = h->v[(k + 1) % n];
        c2d_vec2 e = v2_sub(b, a);
        double e2 = v2_len2(e);
        double u = e2 > 0 ? v2_dot(v2_sub(p, a), e) / e2 : 0.0;
        c2d_vec2 q;
        int fk, fe;
        if (u <= 0) {
            q = a;
            fk = k;
            fe = 0;
        } else if (u >= 1) {
            q = b;
            fk = (k + 1) % n;
            fe = 0;
        } else {
            q = v2_mad(a, u, e);
            fk = k;
            fe = 1;
        }
        double dist = v2_len(v2_sub(p, q));
        if (dist < best) {
            best = dist;
            feature->k = fk;
            feature->is_edge = fe;
            c2d_vec2 side = h->nrm[k];
            if (n == 2 && fe && v2_dot(v2_sub(p, a), side) < 0)
                feature->k = 1; /* the far side of a 2-vertex core is its edge 1 */
            feature->normal = v2_normalize_or(v2_sub(p, q), fe ? h->nrm[feature->k] : side);
        }
    }
    return best - h->r;
}

c2d_vec2 c2d_rhull_contact_point(const c2d_rhull *h, const c2d_rhull_hit *f, const c2d_vec2 *bv, double rb,
                                 c2d_vec2 tb, const c2d_vec2 *av, double ra, c2d_vec2 ta)
{
    int k1 = f->is_edge ? (f->k + 1) % h->n : f->k;
    c2d_vec2 b0 = v2_add(bv[hull_bvert(h, f->k)], tb), b1 = v2_add(bv[hull_bvert(h, k1)], tb);
    c2d_vec2 a0 = v2_add(av[hull_avert(h, f->k)], ta), a1 = v2_add(av[hull_avert(h, k1)], ta);
    c2d_vec2 n = f->normal, tg = v2(-n.y, n.x);
    /* Across the normal: the middle of the overlap of the two touching features (a point for a
     * corner). Along it: midway between the surfaces (they coincide at a time of impact). */
    double bl = fmin(v2_dot(b0, tg), v2_dot(b1, tg)), bh = fmax(v2_dot(b0, tg), v2_dot(b1, tg));
    double al = fmin(v2_dot(a0, tg), v2_dot(a1, tg)), ah = fmax(v2_dot(a0, tg), v2_dot(a1, tg));
    double across = 0.5 * (fmax(bl, al) + fmin(bh, ah));
    double sb = 0.5 * (v2_dot(b0, n) + v2_dot(b1, n)) + rb;
    double sa = 0.5 * (v2_dot(a0, n) + v2_dot(a1, n)) - ra;
    return v2_add(v2_scale(n, 0.5 * (sa + sb)), v2_scale(tg, across));
}

void c2d_rhull_contact_span(const c2d_rhull *h, const c2d_rhull_hit *f, const c2d_vec2 *bv, c2d_vec2 tb,
                            const c2d_vec2 *av, c2d_vec2 ta, c2d_vec2 *lo, c2d_vec2 *hi)
{
    int k1 = f->is_edge ? (f->k + 1) % h->n : f->k;
    int i0 = hull_avert(h, f->k), i1 = hull_avert(h, k1);
    c2d_vec2 a0 = v2_add(av[i0], ta), a1 = v2_add(av[i1], ta);
    if (i0 == i1) {
        *lo = *hi = a0;
        return;
    }
    c2d_vec2 b0 = v2_add(bv[hull_bvert(h, f->k)], tb), b1 = v2_add(bv[hull_bvert(h, k1)], tb);
    c2d_vec2 n = f->normal, tg = v2(-n.y, n.x);
    double bl = fmin(v2_dot(b0, tg), v2_dot(b1, tg)), bh = fmax(v2_dot(b0, tg), v2_dot(b1, tg));
    double al = fmin(v2_dot(a0, tg), v2_dot(a1, tg)), ah = fmax(v2_dot(a0, tg), v2_dot(a1, tg));
    double l = fmax(bl, al), u = fmin(bh, ah);
    if (!(l <= u)) /* the features apart across the normal (a look from afar): their middle */
        l = u = 0.5 * (l + u);
    /* The points of A's edge at those coordinates across (the edge is not across the normal: it is
     * the face along which the two touch, or faces them). */
    c2d_vec2 e = v2_sub(a1, a0);
    double et = v2_dot(e, tg);
    *lo = v2_mad(a0, (l - v2_dot(a0, tg)) / et, e);
    *hi = v2_mad(a0, (u - v2_dot(a0, tg)) / et, e);
}

/* ---- the sweep of two convex shapes ----------------------------------------------------------------- */

#define SWEEP_STACK 64

c2d_status c2d_convex_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out)
{
    /* The hull's arrays, then both shapes placed in the world (the Minkowski merge reads them). */
    int cap = a->count + b->count;
    size_t bytes = (size_t)cap * (2 * sizeof(c2d_vec2) + 2 * sizeof(int)) + (size_t)cap * 2 * sizeof(c2d_vec2);
    union {
        char bytes[SWEEP_STACK * (4 * sizeof(c2d_vec2) + 2 * sizeof(int))];
        double align;
    } stack;
    char *mem = stack.bytes;
    void *heap = NULL;
    if (cap > SWEEP_STACK) {
        heap = malloc(bytes);
        if (!heap)
            return C2D_ERR_NO_MEMORY;
        mem = (char *)heap;
    }
    c2d_vec2 *v = (c2d_vec2 *)mem, *nrm = v + cap, *av = nrm + cap, *bv = av + a->count, *an = av + cap,
             *bn = an + a->count;
    int *bvert = (int *)(an + cap), *avert = bvert + cap;
    c2d_core ka = c2d_world_core(a, av, an), kb = c2d_world_core(b, bv, bn);
    c2d_rhull h;
    h.n = c2d_minkowski(kb.v, kb.n, kb.count, ka.v, ka.n, ka.count, v, nrm, bvert, avert);
    h.v = v;
    h.nrm = nrm;
    h.bvert = bvert;
    h.avert = avert;
    h.r = a->radius + b->radius;

    double scale = fmax(c2d_aabb_magnitude(c2d_shape_aabb(a)), c2d_aabb_magnitude(c2d_shape_aabb(b)));
    scale = fmax(scale, fmax(fmax(fabs(da.x), fabs(da.y)), fmax(fabs(db.x), fabs(db.y))));
    double tol = c2d_sweep_tolerance(scale);
    c2d_vec2 zero = v2(0, 0);
    c2d_toi r;
    memset(&r, 0, sizeof r); /* padding too: results compare byte for byte */
    c2d_rhull_hit f;
    double sd = c2d_rhull_signed_distance(&h, zero, &f);
    if (sd < -tol) {
        r.state = C2D_TOI_OVERLAP;
        r.t = 0;
        r.depth = -sd;
        r.normal = v2_neg(f.normal);
        r.point = c2d_rhull_contact_point(&h, &f, kb.v, b->radius, zero, ka.v, a->radius, zero);
    } else if (c2d_rhull_cast(&h, NULL, zero, v2_sub(da, db), 1.0, tol, &f)) {
        r.state = C2D_TOI_HIT;
        r.t = f.t;
        r.depth = 0;
        r.normal = v2_neg(f.normal);
        r.point = c2d_rhull_contact_point(&h, &f, kb.v, b->radius, v2_scale(db, f.t), ka.v, a->radius,
                                          v2_scale(da, f.t));
    } else {
        r.state = C2D_TOI_NONE;
        r.t = 1;
        r.depth = 0;
        r.normal = zero;
        r.point = zero;
    }
    free(heap);
    *out = r;
    return C2D_OK;
}
