/* worldquery.c - the world's queries: entries meeting a box, a point or a shape, and ray casts (the first
 * hit, every hit). Every query runs in the same three steps: walk the tree collecting candidates (no
 * user code runs while the tree is being walked, so a callback that adds or removes entries can never
 * corrupt a walk in progress), sort them into the promised order, then run filters and the exact narrow
 * phase. Each query's scratch memory is its own, so concurrent queries on an unchanging world are safe.
 * Layer 7, the world. */
#include "world.h"

#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- candidates: collected, sorted, then filtered --------------------------------------------- */

/* One candidate of a query: enough to put it in order and to find it again after callbacks ran. */
typedef struct candidate {
    uintptr_t user;
    c2d_world_id id;
    double t;        /* ray queries: the hit's parameter */
    c2d_ray_hit ray; /* ray queries: the hit */
    int swept;       /* a move's scope: an entry in motion, found by its swept box (add_swept) */
} candidate;

typedef struct cand_vec {
    candidate *data;
    int count, capacity;
} cand_vec;

static int cand_push(cand_vec *v, const candidate *c)
{
    if (v->count == v->capacity) {
        if (v->capacity >= (1 << 28))
            return 0;
        int cap = v->capacity ? 2 * v->capacity : 32;
        candidate *d = (candidate *)realloc(v->data, (size_t)cap * sizeof *d);
        if (!d)
            return 0;
        v->data = d;
        v->capacity = cap;
    }
    v->data[v->count++] = *c;
    return 1;
}


static int cmp_candidate(const void *pa, const void *pb)
{
    const candidate *a = (const candidate *)pa, *b = (const candidate *)pb;
    return c2d_cmp_key(a->user, a->id, b->user, b->id);
}

static int cmp_candidate_t(const void *pa, const void *pb)
{
    const candidate *a = (const candidate *)pa, *b = (const candidate *)pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return c2d_cmp_key(a->user, a->id, b->user, b->id);
}

static int filter_bits(const c2d_world_filter *f, unsigned category, unsigned mask)
{
    return !f || ((f->category & mask) && (category & f->mask));
}

/* Runs the accept callback on a candidate; 0 when the candidate is gone or refused. The entry is
 * looked up again afterwards, since the callback may have removed it. */
static const entry *accept(const c2d_world *w, const c2d_world_filter *f, const candidate *c)
{
    if (f && f->accept && !c2d_lookup(w, c->id))
        return NULL;
    if (f && f->accept && !f->accept(f->ctx, c->id, c->user))
        return NULL;
    const entry *e = c2d_lookup(w, c->id);
    return e && !c2d_slot_disabled(w, (int)(e - w->entries)) ? e : NULL; /* a callback may disable one */
}

/* Collects the candidates from the tree's leaves that pass the filter's bits and `keep` (a test on
 * the entry's tight box), in the world's order. Returns 0 when memory ran out. */
typedef int (*keep_fn)(const entry *e, const void *arg);

static int collect(const c2d_world *w, c2d_aabb box, const c2d_world_filter *f, keep_fn keep, const void *arg,
                   cand_vec *out)
{
    c2d_ivec leaves;
    c2d_ivec_init(&leaves);
    c2d_tree_query(&w->tree, box, &leaves);
    int ok = !leaves.failed;
    for (int k = 0; ok && k < leaves.count; k++) {
        const c2d_tree_node *n = &w->tree.nodes[leaves.data[k]];
        if (!filter_bits(f, n->category, n->mask) || c2d_slot_disabled(w, n->item))
            continue;
        const entry *e = &w->entries[n->item];
        if (!keep(e, arg))
            continue;
        candidate c;
        memset(&c, 0, sizeof c);
        c.user = e->user;
        c.id = c2d_entry_id(w, e);
        ok = cand_push(out, &c);
    }
    c2d_ivec_free(&leaves);
    if (ok && out->count > 1)
        qsort(out->data, (size_t)out->count, sizeof *out->data, cmp_candidate);
    return ok;
}

/* Drops candidates whose entries a later callback removed, and refreshes user values a callback may
 * have changed (restoring the world's order when one did). Without callbacks nothing can change. */
static void drop_dead(const c2d_world *w, const c2d_world_filter *f, cand_vec *v, int resort)
{
    if (!f || !f->accept)
        return;
    int n = 0, changed = 0;
    for (int k = 0; k < v->count; k++) {
        const entry *e = c2d_lookup(w, v->data[k].id);
        if (!e)
            continue;
        changed |= e->user != v->data[k].user;
        v->data[k].user = e->user;
        v->data[n++] = v->data[k];
    }
    v->count = n;
    if (changed && resort && n > 1)
        qsort(v->data, (size_t)n, sizeof *v->data, cmp_candidate);
}


/* Copies the accepted candidates out (all of them or nothing) and sets *count. */
static c2d_status deliver_hits(const cand_vec *v, c2d_world_hit *out, int capacity, int *count)
{
    *count = v->count;
    if (c2d_count_only(out, capacity))
        return C2D_OK;
    if (v->count > capacity)
        return C2D_ERR_CAPACITY;
    for (int k = 0; k < v->count; k++) {
        out[k].id = v->data[k].id;
        out[k].user = v->data[k].user;
    }
    return C2D_OK;
}

/* ---- box, point and shape queries -------------------------------------------------------------- */

static int keep_box(const entry *e, const void *arg)
{
    return c2d_aabb_overlaps(&e->tight, (const c2d_aabb *)arg);
}

static int keep_point(const entry *e, const void *arg)
{
    const c2d_vec2 *p = (const c2d_vec2 *)arg;
    const c2d_aabb *b = &e->tight;
    /* c2d_contains_point decides from edge lines whose rounding may put a boundary point a hair
     * outside the box of the vertices; a box grown by rounding keeps every such point. */
    double tol = 1e-12 * (fabs(p->x) + fabs(p->y) + (b->max.x - b->min.x) + (b->max.y - b->min.y));
    return b->min.x - tol <= p->x && p->x <= b->max.x + tol && b->min.y - tol <= p->y && p->y <= b->max.y + tol;
}

/* ---- the entries in motion of a move's scope ---------------------------------------------------- */

/* A box holding every place the shape takes over `horizon` under its motion m: a point x of it goes to
 * c + v t + R(w t) (x - c), c the pivot where it stands. That point stays within the shape's reach r
 * of the moving pivot (r: the farthest corner of the shape's box from c), and within the chord of its
 * turn, r * min(|w t|, 2), of x + v t: the box is the shape's box grown by that chord, cut by the
 * square of side 2 r about c (both hold, so their overlap does), then stretched by v * horizon. Grown
 * by a hair (1e-9 of its coordinates) for the rounding of the placed vertices and of the turn, far
 * above it: a larger box only considers an entry more. */
static c2d_aabb swept_box(const c2d_shape *s, const c2d_motion *m, double horizon)
{
    c2d_aabb b = c2d_shape_aabb(s);
    double turn = fabs(m->angular_velocity) * horizon;
    if (turn > 0) {
        c2d_vec2 c = c2d_shape_frame_point(s, m->pivot);
        double dx = dmax(fabs(b.min.x - c.x), fabs(b.max.x - c.x));
        double dy = dmax(fabs(b.min.y - c.y), fabs(b.max.y - c.y));
        double r = sqrt(dx * dx + dy * dy);
        double chord = r * dmin(turn, 2.0);
        b.min = v2(dmax(b.min.x - chord, c.x - r), dmax(b.min.y - chord, c.y - r));
        b.max = v2(dmin(b.max.x + chord, c.x + r), dmin(b.max.y + chord, c.y + r));
    }
    double vx = m->velocity.x * horizon, vy = m->velocity.y * horizon;
    b.min = v2(b.min.x + dmin(vx, 0), b.min.y + dmin(vy, 0));
    b.max = v2(b.max.x + dmax(vx, 0), b.max.y + dmax(vy, 0));
    double hair = 1e-9 * (1 + max3(fabs(b.min.x), fabs(b.max.x), dmax(fabs(b.min.y), fabs(b.max.y))));
    b.min = v2(b.min.x - hair, b.min.y - hair);
    b.max = v2(b.max.x + hair, b.max.y + hair);
    return b;
}

/* Puts the entries in motion among a move's candidates by where their motion over horizon takes them
 * rather than where they stand: drops those the tree walk found, adds every one whose swept box meets
 * box and whose bits pass, and puts the candidates back in the world's order. Runs no user code.
 * Returns 0 when memory ran out. */
static int add_swept(const c2d_world *w, c2d_aabb box, double horizon, const c2d_world_filter *f, cand_vec *v)
{
    int n = 0;
    for (int k = 0; k < v->count; k++) {
        const entry *e = c2d_lookup(w, v->data[k].id);
        if (!e || !c2d_motion_moves(&w->motion[e - w->entries]))
            v->data[n++] = v->data[k];
    }
    v->count = n;
    for (int k = 0; k < w->n_moving; k++) {
        int slot = w->moving[k];
        const entry *e = &w->entries[slot];
        if (!filter_bits(f, e->category, e->mask) || c2d_slot_disabled(w, slot))
            continue;
        c2d_aabb b = swept_box(e->shape, &w->motion[slot], horizon);
        if (!c2d_aabb_overlaps(&b, &box))
            continue;
        candidate c;
        memset(&c, 0, sizeof c);
        c.user = e->user;
        c.id = c2d_entry_id(w, e);
        c.swept = 1;
        if (!cand_push(v, &c))
            return 0;
    }
    if (v->count > 1)
        qsort(v->data, (size_t)v->count, sizeof *v->data, cmp_candidate);
    return 1;
}

/* The exact test of one query kind against one entry's shape. */
typedef enum { Q_SHAPE, Q_POINT, Q_BOX_INSIDE } query_kind;

/* The entries one query finds, into v (in the world's order, callbacks run); v is freed on an error.
 * horizon >= 0: a move's scope, in which the entries in motion are found by where their motion over
 * that time takes them (add_swept); < 0: every entry where it stands, as every query. */
static c2d_status query_entries(const c2d_world *w, c2d_aabb box, query_kind kind, const c2d_shape *probe,
                                c2d_vec2 point, double horizon, const c2d_world_filter *f, cand_vec *v_out)
{
    cand_vec v = {NULL, 0, 0};
    int ok = kind == Q_POINT ? collect(w, box, f, keep_point, &point, &v) : collect(w, box, f, keep_box, &box, &v);
    if (ok && horizon >= 0 && w->n_moving > 0)
        ok = add_swept(w, box, horizon, f, &v);
    if (!ok) {
        free(v.data);
        return C2D_ERR_NO_MEMORY;
    }
    int n = 0;
    for (int k = 0; k < v.count; k++) {
        const entry *e = accept(w, f, &v.data[k]);
        if (!e)
            continue;
        int hit = 0;
        c2d_aabb tight;
        if (v.data[k].swept)
            hit = 1; /* its swept box meets the box: the move considers it */
        else if (kind == Q_POINT)
            c2d_contains_point(e->shape, point, &hit);
        else if (kind == Q_BOX_INSIDE && (tight = c2d_shape_aabb(e->shape), c2d_aabb_contains(&box, &tight)))
            hit = 1; /* the shape lies inside its own box, which lies inside the query box */
        else if (c2d_overlap(probe, e->shape, &hit) != C2D_OK) {
            free(v.data); /* out of memory (two large polygons): nothing is written */
            return C2D_ERR_NO_MEMORY;
        }
        if (hit)
            v.data[n++] = v.data[k];
    }
    v.count = n;
    drop_dead(w, f, &v, 1);
    *v_out = v;
    return C2D_OK;
}

static c2d_status run_query(const c2d_world *w, c2d_aabb box, query_kind kind, const c2d_shape *probe,
                            c2d_vec2 point, const c2d_world_filter *f, c2d_world_hit *out, int capacity,
                            int *count)
{
    cand_vec v;
    c2d_status st = query_entries(w, box, kind, probe, point, -1, f, &v);
    if (st != C2D_OK)
        return st;
    st = deliver_hits(&v, out, capacity, count);
    free(v.data);
    return st;
}

/* The entries of c2d_world_query_aabb, into *v; horizon as query_entries's. */
static c2d_status aabb_entries(const c2d_world *world, c2d_aabb box, double horizon, const c2d_world_filter *filter,
                               cand_vec *v)
{
    c2d_status st;
    if ((st = c2d_check_vec(box.min)) || (st = c2d_check_vec(box.max)))
        return st;
    if (box.min.x > box.max.x || box.min.y > box.max.y)
        return C2D_ERR_RANGE;
    double wdt = box.max.x - box.min.x, hgt = box.max.y - box.min.y;
    c2d_vec2 c = v2_mid(box.min, box.max);
    if (wdt == 0 && hgt == 0)
        return query_entries(world, box, Q_POINT, NULL, box.min, horizon, filter, v);
    /* A box with no width or no height is a segment, which has no rectangle to stand for it. */
    c2d_shape *probe = NULL;
    if (wdt == 0 || hgt == 0)
        st = c2d_segment_new(box.min, box.max, &probe);
    else
        st = c2d_box_probe_new(box, &probe);
    if (st)
        return st;
    st = query_entries(world, box, Q_BOX_INSIDE, probe, c, horizon, filter, v);
    c2d_shape_destroy(probe);
    return st;
}

c2d_status c2d_world_query_aabb(const c2d_world *world, c2d_aabb box, const c2d_world_filter *filter,
                                c2d_world_hit *out, int capacity, int *count)
{
    c2d_status st = c2d_check_out(world, out, capacity, count);
    if (st)
        return st;
    cand_vec v;
    if ((st = aabb_entries(world, box, -1, filter, &v)))
        return st;
    st = deliver_hits(&v, out, capacity, count);
    free(v.data);
    return st;
}

/* c2d_world_query_aabb_all and c2d_world_query_reach_all: horizon as query_entries's. */
static c2d_status aabb_all(const c2d_world *world, c2d_aabb box, double horizon, const c2d_world_filter *filter,
                           c2d_world_hit **out, int *count)
{
    cand_vec v;
    c2d_status st = aabb_entries(world, box, horizon, filter, &v);
    if (st)
        return st;
    c2d_world_hit *hits = (c2d_world_hit *)malloc((size_t)(v.count > 0 ? v.count : 1) * sizeof *hits);
    if (!hits) {
        free(v.data);
        return C2D_ERR_NO_MEMORY;
    }
    for (int k = 0; k < v.count; k++) {
        hits[k].id = v.data[k].id;
        hits[k].user = v.data[k].user;
    }
    *out = hits;
    *count = v.count;
    free(v.data);
    return C2D_OK;
}

c2d_status c2d_world_query_aabb_all(const c2d_world *world, c2d_aabb box, const c2d_world_filter *filter,
                                    c2d_world_hit **out, int *count)
{
    return aabb_all(world, box, -1, filter, out, count);
}

int c2d_world_maybe_near(const c2d_world *world, c2d_aabb box)
{
    return world->n_moving > 0 || c2d_tree_any(&world->tree, box);
}

c2d_status c2d_world_query_reach_all(const c2d_world *world, c2d_aabb box, double horizon,
                                     const c2d_world_filter *filter, c2d_world_hit **out, int *count)
{
    return aabb_all(world, box, horizon, filter, out, count);
}

c2d_status c2d_world_query_point(const c2d_world *world, c2d_vec2 p, const c2d_world_filter *filter,
                                 c2d_world_hit *out, int capacity, int *count)
{
    c2d_status st = c2d_check_out(world, out, capacity, count);
    if (st)
        return st;
    if ((st = c2d_check_vec(p)))
        return st;
    c2d_aabb box;
    box.min = p;
    box.max = p;
    return run_query(world, box, Q_POINT, NULL, p, filter, out, capacity, count);
}

c2d_status c2d_world_query_shape(const c2d_world *world, const c2d_shape *shape, const c2d_world_filter *filter,
                                 c2d_world_hit *out, int capacity, int *count)
{
    c2d_status st = c2d_check_out(world, out, capacity, count);
    if (st)
        return st;
    if (!shape)
        return C2D_ERR_NULL;
    return run_query(world, c2d_shape_aabb(shape), Q_SHAPE, shape, shape->pos, filter, out, capacity, count);
}
/* ---- ray casts -------------------------------------------------------------------------------- */

typedef struct ray {
    c2d_vec2 o, d, inv;
    /* The origin as the box tests use it, moved by the ray's rounding allowance: olo against boxes'
     * lower bounds, ohi against their upper bounds, so that every box is tested grown by it (see
     * check_ray). */
    c2d_vec2 olo, ohi;
    double max_t;
    /* A component of d is so small that its inverse overflows (below 1 / DBL_MAX): the slab test
     * divides by d instead, or a box 1e-81 ahead along a direction of 5e-324 would be "at infinity"
     * and missed, though the shape in it is hit at t = 7.7e242. */
    int divide;
} ray;

/* The ray's parameter where it crosses x along axis component d (origin o, inverse inv). */
static inline double slab_t(const ray *r, double x, double o, double d, double inv)
{
    return r->divide ? (x - o) / d : (x - o) * inv;
}

/* Where the ray enters the box, or +INFINITY if it misses it within [0, limit]. */
static inline double ray_box(const ray *r, const c2d_aabb *b, double limit)
{
    double t0 = 0.0, t1 = limit;
    if (r->d.x != 0) {
        double a = slab_t(r, b->min.x, r->olo.x, r->d.x, r->inv.x), c = slab_t(r, b->max.x, r->ohi.x, r->d.x, r->inv.x);
        t0 = dmax(t0, dmin(a, c));
        t1 = dmin(t1, dmax(a, c));
    } else if (r->olo.x < b->min.x || r->ohi.x > b->max.x) {
        return INFINITY;
    }
    if (r->d.y != 0) {
        double a = slab_t(r, b->min.y, r->olo.y, r->d.y, r->inv.y), c = slab_t(r, b->max.y, r->ohi.y, r->d.y, r->inv.y);
        t0 = dmax(t0, dmin(a, c));
        t1 = dmin(t1, dmax(a, c));
    } else if (r->olo.y < b->min.y || r->ohi.y > b->max.y) {
        return INFINITY;
    }
    return t0 <= t1 ? t0 : INFINITY;
}

static c2d_status check_ray(c2d_vec2 origin, c2d_vec2 direction, double max_t, ray *r)
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
    r->o = origin;
    /* c2d_raycast counts a point within 4 eps (|o| + 2 reach) of the ray's line as on it, o being the
     * origin in the shape's frame (|o.x| + |o.y| <= sqrt(2) (|origin|_1 + |position|_1)): a ray may
     * touch a shape whose box it passes beside by that much. Entries' boxes are grown by the shape's
     * own part (tight_box); the origin's part is this, added to every box the ray is tested against
     * by moving the origin the other way, one ulp of it at least. */
    double m = 6 * DBL_EPSILON * (fabs(origin.x) + fabs(origin.y));
    r->olo = v2(nextafter(origin.x + m, INFINITY), nextafter(origin.y + m, INFINITY));
    r->ohi = v2(nextafter(origin.x - m, -INFINITY), nextafter(origin.y - m, -INFINITY));
    r->d = direction;
    r->inv = v2(direction.x != 0 ? 1.0 / direction.x : 0.0, direction.y != 0 ? 1.0 / direction.y : 0.0);
    r->divide = isinf(r->inv.x) || isinf(r->inv.y);
    r->max_t = max_t;
    return C2D_OK;
}

/* Every leaf whose box the ray enters within [0, max_t] that passes the bits, hit or not, in the
 * world's order. */
static int collect_ray(const c2d_world *w, const ray *r, const c2d_world_filter *f, cand_vec *out)
{
    const c2d_tree *t = &w->tree;
    if (t->root == C2D_TREE_NULL)
        return 1;
    c2d_ivec stack;
    c2d_ivec_init(&stack);
    c2d_ivec_push(&stack, t->root);
    int ok = 1;
    while (ok && stack.count > 0) {
        int i = stack.data[--stack.count];
        const c2d_tree_node *n = &t->nodes[i];
        if (ray_box(r, &n->box, r->max_t) == INFINITY)
            continue;
        if (n->child1 != C2D_TREE_NULL) {
            c2d_ivec_push(&stack, n->u.in.child2);
            c2d_ivec_push(&stack, n->child1);
            ok = !stack.failed;
            continue;
        }
        if (!filter_bits(f, n->category, n->mask) || c2d_slot_disabled(w, n->item))
            continue;
        const entry *e = &w->entries[n->item];
        candidate c;
        memset(&c, 0, sizeof c);
        c.user = e->user;
        c.id = c2d_entry_id(w, e);
        ok = cand_push(out, &c);
    }
    c2d_ivec_free(&stack);
    if (ok && out->count > 1)
        qsort(out->data, (size_t)out->count, sizeof *out->data, cmp_candidate);
    return ok;
}

/* c2d_raycast against one shape. A hit must have a finite t: with max_t = +infinity the core
 * (version 1.0.0) reports a miss as a hit at t = +infinity, which must not count here. */
static void cast_one(const c2d_shape *s, const ray *r, double max_t, c2d_ray_hit *h)
{
    c2d_raycast(s, r->o, r->d, max_t, h);
    if (h->hit && !(h->t < INFINITY))
        memset(h, 0, sizeof *h);
}

/* Casts against every candidate that survives the filter; keeps the hits in v (t filled in). */
static void cast_candidates(const c2d_world *w, const ray *r, const c2d_world_filter *f, cand_vec *v)
{
    int n = 0;
    for (int k = 0; k < v->count; k++) {
        const entry *e = accept(w, f, &v->data[k]);
        if (!e)
            continue;
        c2d_ray_hit h;
        cast_one(e->shape, r, r->max_t, &h);
        if (!h.hit)
            continue;
        v->data[k].ray = h;
        v->data[k].t = h.t;
        v->data[n++] = v->data[k];
    }
    v->count = n;
}

/* The ray in the form the first-hit walk tests boxes by when both direction components are nonzero
 * and have finite inverses (the usual case): for each axis, the byte offsets in a c2d_aabb of the
 * bound the ray crosses first (near) and last (far), chosen once by the direction's signs. The slab
 * parameters are then the same products (x - o) * inv as ray_box's, and since rounding is monotonic
 * the near one is exactly ray_box's min of the two and the far one its max: the same entry parameter
 * and the same verdict, without the branches and the min and max of the pair. */
typedef struct fast_ray {
    double onx, ofx, ony, ofy; /* the origin as ray_box uses it against the near and far bounds */
    double ix, iy;
    size_t nx, fx, ny, fy; /* byte offsets of the near and far bounds per axis */
} fast_ray;

static inline double box_at(const c2d_aabb *b, size_t off)
{
    return *(const double *)((const char *)b + off);
}

/* Where the ray enters the box, or +INFINITY if it misses it within [0, limit]: ray_box's answer. */
static inline double fast_ray_box(const fast_ray *r, const c2d_aabb *b, double limit)
{
    double nx = (box_at(b, r->nx) - r->onx) * r->ix, fx = (box_at(b, r->fx) - r->ofx) * r->ix;
    double ny = (box_at(b, r->ny) - r->ony) * r->iy, fy = (box_at(b, r->fy) - r->ofy) * r->iy;
    double t0 = dmax(dmax(0.0, nx), ny), t1 = dmin(dmin(limit, fx), fy);
    return t0 <= t1 ? t0 : INFINITY;
}

/* The walk's stack: nodes still to search, each with the parameter where the ray enters its box. Every
 * node pushed is the sibling of a node on the path from the root to the node being searched, so the
 * stack never holds more nodes than the tree is high. */
#define RAY_STACK 64

/* Fetches the nodes that follow node c in a treelet (see tree.h) but c itself, which the caller
 * reads at once: as many as a full treelet has, in straight-line code (a loop costs a mispredicted
 * branch per treelet). In a treelet that is not full they are nodes of the next one, in depth-first
 * order the likeliest to be walked next anyway. */
static inline void prefetch_treelet(const c2d_tree *t, int c)
{
#if defined(__GNUC__)
    if (c > t->capacity - (1 << C2D_TREELET_LEVELS))
        return;
    const char *p = (const char *)&t->nodes[c];
    __builtin_prefetch(p + 1 * sizeof(c2d_tree_node));
    __builtin_prefetch(p + 2 * sizeof(c2d_tree_node));
#if C2D_TREELET_LEVELS >= 3
    __builtin_prefetch(p + 3 * sizeof(c2d_tree_node));
    __builtin_prefetch(p + 4 * sizeof(c2d_tree_node));
    __builtin_prefetch(p + 5 * sizeof(c2d_tree_node));
    __builtin_prefetch(p + 6 * sizeof(c2d_tree_node));
#endif
#else
    (void)t, (void)c;
#endif
}

/* The first hit so far: the leaf and the hit. The entry (id and user value) is looked up only when
 * two hits tie and at the end: the leaf holds the shape, so the walk reaches it without the entry. */
typedef struct ray_best {
    double t;    /* the ray's end: max_t, then the t of the best hit */
    int leaf;    /* C2D_TREE_NULL before the first hit */
    c2d_ray_hit hit;
} ray_best;

/* Searches a leaf whose box the ray enters within [0, b->t]: the exact test, clipped at the best hit
 * so far. Ties at equal t go to the smaller key. */
static inline void ray_leaf(const c2d_world *w, const ray *r, const c2d_world_filter *f, int leaf, ray_best *b)
{
    const c2d_tree_node *n = &w->tree.nodes[leaf];
    if (!filter_bits(f, n->category, n->mask) || c2d_slot_disabled(w, n->item))
        return;
    c2d_ray_hit h;
    cast_one((const c2d_shape *)n->u.data, r, b->t, &h);
    if (!h.hit)
        return;
    if (b->leaf != C2D_TREE_NULL && h.t == b->t) {
        const entry *e = &w->entries[n->item], *o = &w->entries[w->tree.nodes[b->leaf].item];
        if (c2d_cmp_key(e->user, c2d_entry_id(w, e), o->user, c2d_entry_id(w, o)) > 0)
            return;
    }
    b->t = h.t;
    b->leaf = leaf;
    b->hit = h;
#if defined(__GNUC__)
    __builtin_prefetch(&w->entries[n->item]); /* read at the end */
#endif
}

/* The first hit without callbacks: a walk that clips the ray at the best hit so far, so a ray into a
 * crowded world tests few shapes. At each internal node both children's boxes are tested; the nearer
 * child (by where the ray enters its box) is searched next without going through the stack, the farther
 * one is pushed with its entry parameter, and is dropped unlooked-at when popped if the best hit so far
 * comes before the ray enters its box (the test ray_box would make again, which fails exactly then).
 * The answer is the hit with the smallest t, ties to the smallest key, whatever the order: c2d_raycast's
 * t does not depend on the max_t it is given, and no box the ray enters within the best t is skipped.
 * FAST selects fast_ray_box (both direction components nonzero with finite inverses) over ray_box. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int walk_first_hit(const c2d_world *w, const ray *r, const fast_ray *fr, int fast,
                                 const c2d_world_filter *f, c2d_world_ray_hit *best)
{
    const c2d_tree *t = &w->tree;
    const c2d_tree_node *nodes = t->nodes;
    ray_best rb;
    rb.t = r->max_t;
    rb.leaf = C2D_TREE_NULL;
    memset(&rb.hit, 0, sizeof rb.hit);
    double best_t = r->max_t;
    int node = t->root;
    double tn = fast ? fast_ray_box(fr, &nodes[node].box, best_t) : ray_box(r, &nodes[node].box, best_t);
    if (tn == INFINITY)
        return 1;
    int stack_node[RAY_STACK], *sn = stack_node;
    double stack_t[RAY_STACK], *st = stack_t;
    int height = nodes[node].height;
    void *heap = NULL;
    if (height > RAY_STACK) {
        /* Only a tree far out of balance is this high: a rebuilt one of 2^30 nodes is 30 high. */
        heap = malloc((size_t)height * (sizeof *sn + sizeof *st));
        if (!heap)
            return 0;
        st = (double *)heap;
        sn = (int *)(st + height);
    }
    int top = 0;
    for (;;) {
        const c2d_tree_node *n = &nodes[node];
        if (n->child1 == C2D_TREE_NULL) {
            ray_leaf(w, r, f, node, &rb);
            best_t = rb.t;
        } else {
            int c1 = n->child1, c2 = n->u.in.child2;
            /* The walk waits on memory at every level of a tree bigger than the cache; at the edge
             * of a treelet the next levels are fetched together instead. */
            if (n->u.in.treelets) {
                prefetch_treelet(t, c1);
                prefetch_treelet(t, c2);
            }
            const c2d_tree_node *a = &nodes[c1], *b = &nodes[c2];
            double ta, tb;
            if (fast) {
                ta = fast_ray_box(fr, &a->box, best_t);
                tb = fast_ray_box(fr, &b->box, best_t);
            } else {
                ta = ray_box(r, &a->box, best_t);
                tb = ray_box(r, &b->box, best_t);
            }
            if (tb < ta) {
                int ci = c1;
                double tt = ta;
                c1 = c2;
                c2 = ci;
                ta = tb;
                tb = tt;
            }
            if (ta != INFINITY) {
                if (tb != INFINITY) {
#if defined(__GNUC__)
                    /* Its children are read when it is popped: fetched meanwhile. */
                    const c2d_tree_node *far = &nodes[c2];
                    if (far->child1 != C2D_TREE_NULL) {
                        __builtin_prefetch(&nodes[far->child1]);
                        __builtin_prefetch(&nodes[far->u.in.child2]);
                    } else {
                        __builtin_prefetch(far->u.data);
                    }
#endif
                    sn[top] = c2;
                    st[top] = tb;
                    top++;
                }
                node = c1;
                continue;
            }
        }
        /* Next: the nearest-pushed node the ray still enters before the best hit. */
        while (top > 0 && st[top - 1] > best_t)
            top--;
        if (top == 0)
            break;
        top--;
        node = sn[top];
    }
    free(heap);
    if (rb.leaf != C2D_TREE_NULL) {
        const entry *e = &w->entries[nodes[rb.leaf].item];
        best->id = c2d_entry_id(w, e);
        best->user = e->user;
        best->ray = rb.hit;
    }
    return 1;
}

static int first_hit_walk(const c2d_world *w, const ray *r, const c2d_world_filter *f, c2d_world_ray_hit *best)
{
    if (w->tree.root == C2D_TREE_NULL)
        return 1;
    fast_ray fr;
    if (r->d.x != 0 && r->d.y != 0 && !r->divide) {
        fr.onx = r->d.x > 0 ? r->olo.x : r->ohi.x;
        fr.ofx = r->d.x > 0 ? r->ohi.x : r->olo.x;
        fr.ony = r->d.y > 0 ? r->olo.y : r->ohi.y;
        fr.ofy = r->d.y > 0 ? r->ohi.y : r->olo.y;
        fr.ix = r->inv.x;
        fr.iy = r->inv.y;
        fr.nx = r->d.x > 0 ? offsetof(c2d_aabb, min.x) : offsetof(c2d_aabb, max.x);
        fr.fx = r->d.x > 0 ? offsetof(c2d_aabb, max.x) : offsetof(c2d_aabb, min.x);
        fr.ny = r->d.y > 0 ? offsetof(c2d_aabb, min.y) : offsetof(c2d_aabb, max.y);
        fr.fy = r->d.y > 0 ? offsetof(c2d_aabb, max.y) : offsetof(c2d_aabb, min.y);
        return walk_first_hit(w, r, &fr, 1, f, best);
    }
    return walk_first_hit(w, r, NULL, 0, f, best);
}

c2d_status c2d_world_raycast(const c2d_world *world, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                             const c2d_world_filter *filter, c2d_world_ray_hit *out)
{
    if (!world || !out)
        return C2D_ERR_NULL;
    ray r;
    c2d_status st = check_ray(origin, direction, max_t, &r);
    if (st)
        return st;
    c2d_world_ray_hit best;
    memset(&best, 0, sizeof best);
    if (!filter || !filter->accept) {
        if (!first_hit_walk(world, &r, filter, &best))
            return C2D_ERR_NO_MEMORY;
        *out = best;
        return C2D_OK;
    }
    /* With a callback: collect first, then filter in order (callbacks may change the world). */
    cand_vec v = {NULL, 0, 0};
    if (!collect_ray(world, &r, filter, &v)) {
        free(v.data);
        return C2D_ERR_NO_MEMORY;
    }
    cast_candidates(world, &r, filter, &v);
    drop_dead(world, filter, &v, 1);
    for (int k = 0; k < v.count; k++) {
        const candidate *c = &v.data[k];
        if (!best.ray.hit || c->t < best.ray.t) { /* candidates are in key order: first wins ties */
            best.id = c->id;
            best.user = c->user;
            best.ray = c->ray;
        }
    }
    free(v.data);
    *out = best;
    return C2D_OK;
}

c2d_status c2d_world_raycast_all(const c2d_world *world, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                                 const c2d_world_filter *filter, c2d_world_ray_hit *out, int capacity, int *count)
{
    c2d_status st = c2d_check_out(world, out, capacity, count);
    if (st)
        return st;
    ray r;
    if ((st = check_ray(origin, direction, max_t, &r)))
        return st;
    cand_vec v = {NULL, 0, 0};
    if (!collect_ray(world, &r, filter, &v)) {
        free(v.data);
        return C2D_ERR_NO_MEMORY;
    }
    cast_candidates(world, &r, filter, &v);
    drop_dead(world, filter, &v, 0);
    if (v.count > 1)
        qsort(v.data, (size_t)v.count, sizeof *v.data, cmp_candidate_t);
    *count = v.count;
    if (c2d_count_only(out, capacity) || v.count > capacity) {
        free(v.data);
        return c2d_count_only(out, capacity) ? C2D_OK : C2D_ERR_CAPACITY;
    }
    for (int k = 0; k < v.count; k++) {
        out[k].id = v.data[k].id;
        out[k].user = v.data[k].user;
        out[k].ray = v.data[k].ray;
    }
    free(v.data);
    return C2D_OK;
}
