/* seams.c - seams between touching shapes (seed 004, problem 1): which edges and corners of a shape are
 * hidden inside the union of the shapes around it, so that a ball rolling along a row of bricks or a box
 * sliding over a tile floor never hits an internal edge or the corner at a joint.
 *
 * The rule is one idea applied twice. A contact is real only if its normal is a normal of the union
 * there. For an edge covered by opposite collinear edges of neighbours, the union has no boundary there
 * at all: the edge is a seam. For a corner, the union's normals are those shared by every shape meeting
 * at that point: the intersection of their normal cones (a vertex on a neighbour's edge contributes that
 * edge's normal, a vertex buried inside a neighbour contributes nothing). At the joint of two equal
 * bricks that leaves the single "up" direction, so a corner bounce there is impossible.
 *
 * This file only needs the shapes, not the static set, so the world's broadphase can reuse it.
 * Layer 4, sets.
 */
#include "sweep.h"

/* Whether neighbour edges opposite to edge e of s cover it end to end (gaps up to their tolerance). */
static int edge_covered(const c2d_core *s, int e, const c2d_seam_neighbour *nb, int nn)
{
    c2d_vec2 a = s->v[e], b = s->v[(e + 1) % s->count];
    c2d_vec2 n = s->n[e];
    double len = v2_len(v2_sub(b, a));
    c2d_vec2 t = v2_scale(v2_sub(b, a), 1.0 / len);
    double covered = 0.0, slack = 0.0;
    int any = 0;
    /* Every gap allowed (off the edge's line, between covering edges, at the far end) is at most a
     * quarter of the edge: a tolerance as long as the edge would let any neighbour near it, however
     * small and wherever along it, hide the whole face. */
    double cap = 0.25 * len;
    for (int k = 0; k < nn; k++)
        if (!nb[k].corner_only)
            slack = fmax(slack, fmin(nb[k].tolerance, cap));
    /* Grow the covered prefix [0, covered] by any interval starting inside it, until nothing grows: a
     * few passes over a handful of neighbour edges, without storing the intervals. At least one pass,
     * so that an edge shorter than the slack is a seam only when some neighbour edge lies on it. */
    for (int progress = 1, pass = 0; progress && (pass == 0 || covered < len - slack); pass++) {
        progress = 0;
        for (int k = 0; k < nn; k++) {
            const c2d_core *o = nb[k].core;
            double tol = fmin(nb[k].tolerance, cap);
            if (o->radius > 0 || nb[k].corner_only)
                continue;
            /* The neighbour covers the outside of this edge only if it reaches past the edge's line:
             * with a large tolerance, a facing edge far behind belongs to a shape lying beside this
             * one, not over its outside; and a coincident copy of a shape of zero width reaches past
             * it only by rounding, which must not count (beyond the tolerance). */
            double front = -INFINITY;
            for (int v = 0; v < o->count; v++)
                front = fmax(front, v2_dot(v2_sub(o->v[v], a), n));
            if (!(front > tol))
                continue;
            for (int f = 0; f < c2d_core_edges(o); f++) {
                if (v2_dot(o->n[f], n) > -0.5)
                    continue; /* not facing this edge */
                c2d_vec2 c = v2_sub(o->v[f], a), d = v2_sub(o->v[(f + 1) % o->count], a);
                if (fabs(v2_dot(c, n)) > tol || fabs(v2_dot(d, n)) > tol)
                    continue; /* not on this edge's line */
                double lo = fmin(v2_dot(c, t), v2_dot(d, t)), hi = fmax(v2_dot(c, t), v2_dot(d, t));
                if (!(hi > lo))
                    continue; /* an edge of no length (a collapsed shape) shares no face */
                if (lo <= covered + tol && hi >= covered - tol)
                    any = 1;
                if (lo <= covered + tol && hi > covered) {
                    covered = hi;
                    progress = 1;
                }
            }
        }
    }
    return any && covered >= len - slack;
}

/* The normal cones the neighbour o has at point p: none touching (returns 0 and leaves *buried 0), p
 * buried inside o (*buried = 1), or up to two cones (two for the interior of a segment, one per side). */
static int neighbour_cones(const c2d_core *o, c2d_vec2 p, double tol, c2d_cone *cones, int *buried)
{
    *buried = 0;
    if (o->radius > 0 || o->count < 2)
        return 0;
    /* The nearest vertex within tol (several may be, on a shape thinner than tol). */
    int near = -1;
    double near_d = tol;
    for (int j = 0; j < o->count; j++) {
        double d = v2_len(v2_sub(p, o->v[j]));
        if (d <= near_d && (near < 0 || d < near_d)) {
            near = j;
            near_d = d;
        }
    }
    if (near >= 0) {
        /* Vertices of o that coincide at p (a rectangle of denormal width) share the point: the
         * normal cone there is the union of theirs, from the edge before the first to the edge after
         * the last. Beyond a half-turn no arc can hold it: it then restricts nothing. */
        int n = o->count, first = near, last = near, run = 1;
        while (run < n && v2_len(v2_sub(p, o->v[(first + n - 1) % n])) <= tol) {
            first = (first + n - 1) % n;
            run++;
        }
        while (run < n && v2_len(v2_sub(p, o->v[(last + 1) % n])) <= tol) {
            last = (last + 1) % n;
            run++;
        }
        cones[0] = c2d_core_vertex_cone(o->n, n, near);
        if (run > 1) {
            cones[0].lo = o->n[(first + n - 1) % n];
            cones[0].hi = o->n[last];
            double turn = v2_cross(cones[0].lo, cones[0].hi);
            if (run == n || turn < 0 || (turn == 0 && v2_dot(cones[0].lo, cones[0].hi) > 0)) {
                cones[0].kind = C2D_CONE_FULL;
                cones[0].lo = cones[0].hi = v2(0, 0);
            }
        }
        return 1;
    }
    int found = 0;
    double deepest = -INFINITY;
    for (int f = 0; f < c2d_core_edges(o); f++) {
        c2d_vec2 a = o->v[f], b = o->v[(f + 1) % o->count];
        double side = v2_dot(v2_sub(p, a), o->n[f]);
        deepest = fmax(deepest, side);
        if (fabs(side) > tol)
            continue;
        c2d_vec2 e = v2_sub(b, a);
        double u = v2_dot(v2_sub(p, a), e);
        if (u < 0 || u > v2_len2(e))
            continue;
        cones[found].kind = C2D_CONE_ARC;
        cones[found].lo = cones[found].hi = o->n[f];
        if (++found == 2)
            break;
    }
    if (!found && o->count >= 3 && deepest < -tol)
        *buried = 1;
    return found;
}

/* Whether a cone is one direction (up to the cone tolerance). */
static int single_direction(const c2d_cone *c)
{
    return c->kind == C2D_CONE_ARC && fabs(v2_cross(c->lo, c->hi)) <= C2D_CONE_EPS && v2_dot(c->lo, c->hi) > 0;
}

void c2d_seams_compute(const c2d_core *s, const c2d_seam_neighbour *nb, int nn, unsigned char *ghost_edge,
                       c2d_cone *vcone)
{
    int n = s->count, ne = c2d_core_edges(s);
    for (int i = 0; i < n; i++)
        vcone[i] = c2d_core_vertex_cone(s->n, n, i);
    for (int e = 0; e < ne; e++)
        ghost_edge[e] = 0;
    if (s->radius > 0 || n < 2)
        return;
    for (int e = 0; e < ne; e++)
        ghost_edge[e] = (unsigned char)edge_covered(s, e, nb, nn);
    for (int i = 0; i < n; i++) {
        /* As for edges, the gap allowed at a corner is at most a quarter of the longer edge there: a
         * tolerance as long as the edges let the far end of a segment 180 units below a brick's
         * corner "touch" it and hide the corner, and a ball went in there. */
        double cap = 0.25 * fmax(v2_len(v2_sub(s->v[(i + 1) % n], s->v[i])),
                                 v2_len(v2_sub(s->v[i], s->v[(i + n - 1) % n])));
        for (int k = 0; k < nn && vcone[i].kind != C2D_CONE_EMPTY; k++) {
            c2d_cone cones[2];
            int buried;
            int m = neighbour_cones(nb[k].core, s->v[i], fmin(nb[k].tolerance, cap), cones, &buried);
            if (buried) {
                vcone[i].kind = C2D_CONE_EMPTY;
            } else if (m > 0) {
                /* The union of the intersections with each cone. For a corner lying on a segment
                 * (two cones, one per side) at most one is not empty, unless the corner's own
                 * surface goes on along the segment on both sides (a chain's joint covered by a
                 * segment lying along it): then each side keeps its own normal. */
                c2d_cone r = c2d_cone_intersect(vcone[i], cones[0]);
                if (m == 2) {
                    c2d_cone r1 = c2d_cone_intersect(vcone[i], cones[1]);
                    if (r.kind == C2D_CONE_EMPTY)
                        r = r1;
                    else if (single_direction(&r) && single_direction(&r1) && v2_dot(r.lo, r1.lo) < 0) {
                        r.kind = C2D_CONE_RAYS;
                        r.hi = r1.lo;
                    }
                }
                vcone[i] = r;
            }
        }
    }
}
