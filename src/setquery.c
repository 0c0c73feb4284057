/* setquery.c - a static set's queries, the world's verbs on the other container: the shapes that meet a
 * box, a point or a shape, and ray casts (the first hit, every hit). Candidates come from the set's grid
 * (c2d_static_set_query, which also looks at every member re-placed or given a motion, and skips the
 * disabled ones); each is a member, a convex part of the caller's shape it belongs to, and the answer is
 * decided on that caller's shape (the set's own copy, c2d_static_set_get_shape) by the public calls
 * c2d_overlap, c2d_contains_point and c2d_raycast, so a set answers exactly what those calls answer
 * shape by shape. Lists are in index order (rays: by t, ties by index). Only reads the set, so it may
 * run from several threads at once. Layer 6: it calls pairs.c and the set (layer 4), never up. */
#include "sweep.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

/* The caller's shapes a query found, as indices: grown as needed, sorted and made unique at the end. */
typedef struct index_vec {
    int *data;
    int count, capacity;
    int failed; /* out of memory */
} index_vec;

static void ivec_push(index_vec *v, int i)
{
    if (v->failed)
        return;
    if (v->count == v->capacity) {
        int cap = v->capacity ? 2 * v->capacity : 32;
        int *d = (int *)realloc(v->data, (size_t)cap * sizeof *d);
        if (!d) {
            v->failed = 1;
            return;
        }
        v->data = d;
        v->capacity = cap;
    }
    v->data[v->count++] = i;
}

static int cmp_int(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return a < b ? -1 : a > b;
}

/* Sorts the indices and drops repeats: a chain's segments are members of their own, one index. */
static void ivec_unique(index_vec *v)
{
    if (v->count < 2)
        return;
    qsort(v->data, (size_t)v->count, sizeof *v->data, cmp_int);
    int n = 1;
    for (int k = 1; k < v->count; k++)
        if (v->data[k] != v->data[n - 1])
            v->data[n++] = v->data[k];
    v->count = n;
}

typedef struct gather {
    const c2d_static_set *set;
    index_vec *found;
} gather;

static int gather_owner(void *ctx, int m)
{
    gather *g = (gather *)ctx;
    ivec_push(g->found, c2d_static_set_owner(g->set, m));
    return g->found->failed; /* out of memory: stop */
}

static double box_magnitude(c2d_aabb b)
{
    double x = fmax(fabs(b.min.x), fabs(b.max.x)), y = fmax(fabs(b.min.y), fabs(b.max.y));
    return fmax(x, y);
}

/* The indices of the enabled shapes with a member whose box meets box grown by a hair: the exact tests
 * decide from edge lines whose rounding may put a touching point a little outside the box of the
 * vertices (as the world grows its entries' boxes, tight_box), and a larger box only asks more. */
static c2d_status candidates(const c2d_static_set *set, c2d_aabb box, index_vec *found)
{
    double hair = 1e-9 * (1.0 + box_magnitude(box) + (box.max.x - box.min.x) + (box.max.y - box.min.y));
    box.min = v2(box.min.x - hair, box.min.y - hair);
    box.max = v2(box.max.x + hair, box.max.y + hair);
    gather g = {set, found};
    c2d_static_set_query(set, box, 0, gather_owner, &g);
    if (found->failed) {
        free(found->data);
        return C2D_ERR_NO_MEMORY;
    }
    ivec_unique(found);
    return C2D_OK;
}

static c2d_status check_list(const c2d_static_set *set, const void *out, int capacity, const int *count)
{
    if (!set || !count || (!out && capacity > 0))
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    return C2D_OK;
}

/* A list call given no array (NULL, capacity 0) asks for the count only, as the world's do. */
static int count_only(const void *out, int capacity)
{
    return out == NULL && capacity == 0;
}

/* Copies the hits out (all of them or nothing) and sets *count. */
static c2d_status deliver(const c2d_static_set *set, const index_vec *v, c2d_set_hit *out, int capacity, int *count)
{
    *count = v->count;
    if (count_only(out, capacity))
        return C2D_OK;
    if (v->count > capacity)
        return C2D_ERR_CAPACITY;
    for (int k = 0; k < v->count; k++) {
        out[k].index = v->data[k];
        out[k].user = c2d_static_set_value(set, v->data[k]);
    }
    return C2D_OK;
}

/* The exact test of one query kind against one of the set's shapes. */
typedef enum { Q_SHAPE, Q_POINT, Q_BOX_INSIDE } query_kind;

/* Whether inner lies inside outer (tree.h has the world's own: layer 7, a header this file does not read). */
static int box_contains(const c2d_aabb *outer, const c2d_aabb *inner)
{
    return outer->min.x <= inner->min.x && outer->min.y <= inner->min.y && inner->max.x <= outer->max.x &&
           inner->max.y <= outer->max.y;
}

/* Keeps in v the shapes of the candidates that pass the exact test. */
static c2d_status query_shapes(const c2d_static_set *set, c2d_aabb box, query_kind kind, const c2d_shape *probe,
                               c2d_vec2 point, index_vec *v)
{
    memset(v, 0, sizeof *v);
    c2d_status st = candidates(set, box, v);
    if (st != C2D_OK)
        return st;
    int n = 0;
    for (int k = 0; k < v->count; k++) {
        const c2d_shape *s = NULL;
        c2d_static_set_get_shape(set, v->data[k], &s);
        int hit = 0;
        c2d_aabb tight;
        if (kind == Q_POINT)
            c2d_contains_point(s, point, &hit);
        else if (kind == Q_BOX_INSIDE && (tight = c2d_shape_aabb(s), box_contains(&box, &tight)))
            hit = 1; /* the shape lies inside its own box, which lies inside the query box */
        else if (c2d_overlap(probe, s, &hit) != C2D_OK) {
            free(v->data); /* out of memory (two large polygons): nothing is written */
            return C2D_ERR_NO_MEMORY;
        }
        if (hit)
            v->data[n++] = v->data[k];
    }
    v->count = n;
    return C2D_OK;
}

c2d_status c2d_static_set_query_aabb(const c2d_static_set *set, c2d_aabb box, c2d_set_hit *out, int capacity,
                                     int *count)
{
    c2d_status st = check_list(set, out, capacity, count);
    if (st)
        return st;
    if ((st = c2d_check_vec(box.min)) || (st = c2d_check_vec(box.max)))
        return st;
    if (box.min.x > box.max.x || box.min.y > box.max.y)
        return C2D_ERR_RANGE;
    double w = box.max.x - box.min.x, h = box.max.y - box.min.y;
    index_vec v;
    if (w == 0 && h == 0) {
        st = query_shapes(set, box, Q_POINT, NULL, box.min, &v);
    } else {
        /* As the world's query: a box with no width or no height is a segment. */
        c2d_shape *probe = NULL;
        st = w == 0 || h == 0 ? c2d_segment_new(box.min, box.max, &probe) : c2d_box_probe_new(box, &probe);
        if (st)
            return st;
        st = query_shapes(set, box, Q_BOX_INSIDE, probe, v2_mid(box.min, box.max), &v);
        c2d_shape_destroy(probe);
    }
    if (st)
        return st;
    st = deliver(set, &v, out, capacity, count);
    free(v.data);
    return st;
}

c2d_status c2d_static_set_query_point(const c2d_static_set *set, c2d_vec2 p, c2d_set_hit *out, int capacity,
                                      int *count)
{
    c2d_status st = check_list(set, out, capacity, count);
    if (st)
        return st;
    if ((st = c2d_check_vec(p)))
        return st;
    c2d_aabb box;
    box.min = p;
    box.max = p;
    index_vec v;
    if ((st = query_shapes(set, box, Q_POINT, NULL, p, &v)))
        return st;
    st = deliver(set, &v, out, capacity, count);
    free(v.data);
    return st;
}

c2d_status c2d_static_set_query_shape(const c2d_static_set *set, const c2d_shape *shape, c2d_set_hit *out,
                                      int capacity, int *count)
{
    c2d_status st = check_list(set, out, capacity, count);
    if (st)
        return st;
    if (!shape)
        return C2D_ERR_NULL;
    index_vec v;
    if ((st = query_shapes(set, c2d_shape_aabb(shape), Q_SHAPE, shape, shape->pos, &v)))
        return st;
    st = deliver(set, &v, out, capacity, count);
    free(v.data);
    return st;
}

/* ---- ray casts -------------------------------------------------------------------------------- */

/* The world's checks of a ray (c2d_world_raycast): the same statuses for the same arguments. */
static c2d_status check_ray(c2d_vec2 origin, c2d_vec2 direction, double max_t)
{
    c2d_status st;
    if ((st = c2d_check_vec(origin)) || (st = c2d_check_vec(direction)))
        return st;
    if (isnan(max_t))
        return C2D_ERR_NOT_FINITE;
    if (max_t < 0)
        return C2D_ERR_RANGE;
    if (direction.x == 0 && direction.y == 0)
        return C2D_ERR_DEGENERATE;
    return C2D_OK;
}

/* Clips the ray's parameter range [*t0, *t1] to the slab lo <= o + d t <= hi of one axis; 0 when
 * nothing is left. */
static int clip_slab(double o, double d, double lo, double hi, double *t0, double *t1)
{
    if (d == 0)
        return lo <= o && o <= hi;
    double a = (lo - o) / d, b = (hi - o) / d;
    if (a > b) {
        double x = a;
        a = b;
        b = x;
    }
    if (a > *t0)
        *t0 = a;
    if (b < *t1)
        *t1 = b;
    return *t0 <= *t1;
}

/* Where the ray is at t along one axis: exactly o when the ray does not move along it (0 * infinity
 * would be NaN for a ray whose other component is so small that its clipped end overflowed). */
static double ray_at(double o, double d, double t)
{
    return d == 0 ? o : o + d * t;
}

/* The column or row of coordinate c on an axis of the grid (origin o, n cells), clamped. */
static int cell_of(double c, double o, double cell, int n)
{
    double k = (c - o) / cell;
    return k < 0 ? 0 : (k >= n ? n - 1 : (int)k);
}

/* The indices of the enabled shapes with a member whose box the ray may meet within [0, max_t]: every
 * member re-placed or in motion (they left the grid), and the members filed in the grid cells the ray
 * crosses, found row by row: in each row, the columns between where the ray enters the row and where
 * it leaves it. Every range is grown by a hair, far above the rounding of c2d_raycast (which counts a
 * point within a few ulps of its line as on it) and of the slab arithmetic: a wider search only casts
 * against more shapes. */
static c2d_status ray_candidates(const c2d_static_set *set, c2d_vec2 o, c2d_vec2 d, double max_t, index_vec *found)
{
    memset(found, 0, sizeof *found);
    if (set->n == 0)
        return C2D_OK;
    for (int k = 0; k < set->loose_count; k++) {
        int m = set->loose[k];
        if (set->enabled[m])
            ivec_push(found, c2d_static_set_owner(set, m));
    }
    double mag = fmax(fmax(fabs(o.x), fabs(o.y)),
                      fmax(fmax(fabs(set->origin.x), fabs(set->origin.y)), fmax(fabs(set->end.x), fabs(set->end.y))));
    double hair = 1e-9 * (1.0 + mag) + 1e-9 * set->cell;
    double t0 = 0, t1 = max_t;
    if (clip_slab(o.x, d.x, set->origin.x - hair, set->end.x + hair, &t0, &t1) &&
        clip_slab(o.y, d.y, set->origin.y - hair, set->end.y + hair, &t0, &t1)) {
        double ya = ray_at(o.y, d.y, t0), yb = ray_at(o.y, d.y, t1);
        int r0 = cell_of(fmin(ya, yb) - hair, set->origin.y, set->cell, set->gh);
        int r1 = cell_of(fmax(ya, yb) + hair, set->origin.y, set->cell, set->gh);
        for (int r = r0; r <= r1 && !found->failed; r++) {
            double lo = set->origin.y + r * set->cell, hi = lo + set->cell;
            double s0 = t0, s1 = t1;
            if (!clip_slab(o.y, d.y, lo - hair, hi + hair, &s0, &s1))
                continue;
            double xa = ray_at(o.x, d.x, s0), xb = ray_at(o.x, d.x, s1);
            int c0 = cell_of(fmin(xa, xb) - hair, set->origin.x, set->cell, set->gw);
            int c1 = cell_of(fmax(xa, xb) + hair, set->origin.x, set->cell, set->gw);
            for (int c = c0; c <= c1; c++) {
                int cell = r * set->gw + c;
                for (int k = set->cell_start[cell]; k < set->cell_start[cell + 1]; k++) {
                    int m = set->cell_items[k];
                    if (m >= 0 && set->enabled[m]) /* -1: a member that left the grid */
                        ivec_push(found, c2d_static_set_owner(set, m));
                }
            }
        }
    }
    if (found->failed) {
        free(found->data);
        return C2D_ERR_NO_MEMORY;
    }
    ivec_unique(found);
    return C2D_OK;
}

/* c2d_raycast against shape i of the set. A hit must have a finite t: with max_t = +infinity the core
 * (version 1.0.0) reports a miss as a hit at t = +infinity, which must not count here (as the world). */
static void cast_one(const c2d_static_set *set, int i, c2d_vec2 o, c2d_vec2 d, double max_t, c2d_ray_hit *h)
{
    const c2d_shape *s = NULL;
    c2d_static_set_get_shape(set, i, &s);
    c2d_raycast(s, o, d, max_t, h);
    if (h->hit && !(h->t < INFINITY))
        memset(h, 0, sizeof *h);
}

c2d_status c2d_static_set_raycast(const c2d_static_set *set, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                                  c2d_set_ray_hit *out)
{
    if (!set || !out)
        return C2D_ERR_NULL;
    c2d_status st = check_ray(origin, direction, max_t);
    if (st)
        return st;
    index_vec v;
    if ((st = ray_candidates(set, origin, direction, max_t, &v)))
        return st;
    c2d_set_ray_hit best;
    memset(&best, 0, sizeof best);
    best.index = -1;
    for (int k = 0; k < v.count; k++) {
        c2d_ray_hit h;
        cast_one(set, v.data[k], origin, direction, max_t, &h);
        /* Indices ascend: the first of equal t wins. */
        if (h.hit && (!best.ray.hit || h.t < best.ray.t)) {
            best.index = v.data[k];
            best.ray = h;
        }
    }
    free(v.data);
    if (best.ray.hit)
        best.user = c2d_static_set_value(set, best.index);
    *out = best;
    return C2D_OK;
}

static int cmp_ray_hit(const void *pa, const void *pb)
{
    const c2d_set_ray_hit *a = (const c2d_set_ray_hit *)pa, *b = (const c2d_set_ray_hit *)pb;
    if (a->ray.t != b->ray.t)
        return a->ray.t < b->ray.t ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

c2d_status c2d_static_set_raycast_all(const c2d_static_set *set, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                                      c2d_set_ray_hit *out, int capacity, int *count)
{
    c2d_status st = check_list(set, out, capacity, count);
    if (st)
        return st;
    if ((st = check_ray(origin, direction, max_t)))
        return st;
    index_vec v;
    if ((st = ray_candidates(set, origin, direction, max_t, &v)))
        return st;
    c2d_set_ray_hit *hits = (c2d_set_ray_hit *)malloc((size_t)(v.count > 0 ? v.count : 1) * sizeof *hits);
    if (!hits) {
        free(v.data);
        return C2D_ERR_NO_MEMORY;
    }
    int n = 0;
    for (int k = 0; k < v.count; k++) {
        c2d_ray_hit h;
        cast_one(set, v.data[k], origin, direction, max_t, &h);
        if (!h.hit)
            continue;
        hits[n].index = v.data[k];
        hits[n].user = c2d_static_set_value(set, v.data[k]);
        hits[n].ray = h;
        n++;
    }
    free(v.data);
    if (n > 1)
        qsort(hits, (size_t)n, sizeof *hits, cmp_ray_hit);
    *count = n;
    if (!count_only(out, capacity) && n <= capacity)
        memcpy(out, hits, (size_t)n * sizeof *hits);
    free(hits);
    if (count_only(out, capacity))
        return C2D_OK;
    return n > capacity ? C2D_ERR_CAPACITY : C2D_OK;
}
