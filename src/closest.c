/* closest.c - the closest points of two cores, exactly: every vertex of each against every edge of the
 * other (for disjoint convex cores the closest pair always involves a vertex), and which features they
 * are. Layer 3, kernels: the lowest of them, which the SAT, contact and distance code build on. */
#include "shape.h"

c2d_vec2 c2d_closest_on_segment(c2d_vec2 a, c2d_vec2 b, c2d_vec2 p)
{
    return c2d_segment_closest(a, b, p);
}

/* Distinct edges of a core: a 2-vertex core has one segment (its two "edges" coincide). */
static int distinct_edges(const c2d_core *s)
{
    return s->count == 2 ? 1 : (s->count >= 3 ? s->count : 0);
}

/* Vertices of `v` against the edges of `e`: keeps the closest pair found so far, and when fp is not
 * NULL which features they are (vertex_in_b says whether v is the second core). */
static inline void vertices_to_edges(const c2d_core *v, const c2d_core *e, double *best, c2d_vec2 *pv, c2d_vec2 *pe,
                                     c2d_feature_pair *fp, int vertex_in_b)
{
    int ne = distinct_edges(e);
    for (int i = 0; i < v->count; i++) {
        c2d_vec2 p = v->v[i];
        for (int k = 0; k < ne; k++) {
            c2d_vec2 q = c2d_closest_on_segment(e->v[k], e->v[(k + 1) % e->count], p);
            double d2 = v2_len2(v2_sub(p, q));
            if (d2 < *best) {
                *best = d2;
                *pv = p;
                *pe = q;
                if (fp) {
                    fp->vertex_in_b = vertex_in_b;
                    fp->vertex = i;
                    fp->edge = k;
                }
            }
        }
    }
}

/* For disjoint convex cores the closest pair always involves a vertex of one of them, so checking
 * every vertex against every edge of the other is exact. */
static inline double core_distance(const c2d_core *a, const c2d_core *b, c2d_vec2 *pa, c2d_vec2 *pb,
                                   c2d_feature_pair *fp)
{
    double best = INFINITY;
    if (a->count == 1 && b->count == 1) {
        *pa = a->v[0];
        *pb = b->v[0];
        return v2_len_safe(v2_sub(*pb, *pa));
    }
    vertices_to_edges(a, b, &best, pa, pb, fp, 0);
    vertices_to_edges(b, a, &best, pb, pa, fp, 1);
    /* From the points again: the squared distance underflows for gaps below about 1e-154. */
    return v2_len_safe(v2_sub(*pb, *pa));
}

double c2d_core_distance(const c2d_core *a, const c2d_core *b, c2d_vec2 *pa, c2d_vec2 *pb)
{
    return core_distance(a, b, pa, pb, NULL);
}

double c2d_core_distance_features(const c2d_core *a, const c2d_core *b, c2d_vec2 *pa, c2d_vec2 *pb,
                                  c2d_feature_pair *fp)
{
    return core_distance(a, b, pa, pb, fp);
}
