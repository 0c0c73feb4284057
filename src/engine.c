/* engine.c - the engine of every motion through a static set: its setup for one call (the seams its
 * responses expose, the tolerances, the hull storage), its grid queries, the mover's hull against one
 * member, and the cast of a leg against those hulls. Layer 4, sets.
 *
 * Every motion is one engine: the mover is a core (its vertices at the start, offset by p as it moves)
 * and each leg is a ray cast of p against the rounded Minkowski hull of every nearby shape, seams
 * excluded; the earliest hit ends the leg and its response shapes the next one. A ball is the mover
 * whose core is one point, so its hull is the brick's own core swollen by the ball's radius. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "trig.h"
#include "turnsweep.h"

void c2d_engine_free(engine *e)
{
    /* Almost every call allocates none of them: five calls of free(NULL) cost a ball step about 2%. */
    if (e->heap || e->seam_at || e->seam_ghost || e->seam_vcone || e->turned_heap) {
        free(e->heap);
        free(e->seam_at);
        free(e->seam_ghost);
        free(e->seam_vcone);
        free(e->turned_heap);
    }
    e->heap = NULL;
    e->seam_at = NULL;
    e->seam_ghost = NULL;
    e->seam_vcone = NULL;
    e->turned = NULL;
    e->turned_heap = NULL;
    e->n_turned = 0;
}

/* Room for the cores of the turning members turned to a clock (they are all loose: c2d_engine_core). */
static c2d_status engine_turned(engine *e)
{
    const c2d_static_set *set = e->set;
    int k = 0, small = 1;
    size_t verts = 0;
    for (int j = 0; j < set->loose_count; j++) {
        int m = set->loose[j], count = set->core[m].count;
        if (is_turning(e, m)) {
            k++;
            verts += (size_t)count;
            small &= count <= TURNED_STACK_VERTICES;
        }
    }
    if (k == 0)
        return C2D_OK;
    small &= k <= TURNED_STACK;
    c2d_vec2 *v = e->turned_v;
    e->turned = e->turned_stack;
    if (!small) {
        char *mem = (char *)malloc((size_t)k * sizeof(turned_core) + 2 * verts * sizeof(c2d_vec2));
        if (!mem)
            return C2D_ERR_NO_MEMORY;
        e->turned_heap = mem;
        e->turned = (turned_core *)mem;
        v = (c2d_vec2 *)(mem + (size_t)k * sizeof(turned_core));
    }
    for (int j = 0; j < set->loose_count; j++) {
        int m = set->loose[j];
        if (!is_turning(e, m))
            continue;
        turned_core *t = &e->turned[e->n_turned++];
        t->member = m;
        t->clock = NAN;
        t->v = v;
        t->n = v + set->core[m].count;
        v += 2 * (size_t)set->core[m].count;
        t->core = set->core[m];
        t->box_horizon = NAN;
    }
    return C2D_OK;
}

/* Turning member i's entry in the engine's turned cores. */
static turned_core *turned_of(const engine *e, int i)
{
    int lo = 0, hi = e->n_turned - 1;
    while (lo < hi) { /* in the order of the loose list: ascending members */
        int mid = (lo + hi) / 2;
        if (e->turned[mid].member < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return &e->turned[lo];
}

int c2d_engine_turn_near(const engine *e, int i, c2d_vec2 p, c2d_vec2 d, double tol)
{
    turned_core *t = turned_of(e, i);
    if (!(t->box_horizon == e->horizon)) {
        t->box = c2d_core_turn_box(&e->set->core[i], pivot_of(e, i), e->spin[i] * e->horizon);
        t->box_horizon = e->horizon;
    }
    c2d_aabb m = mover_box(e->a, p, d, 0.0), *b = &t->box;
    double gap = c2d_max_num(c2d_max_num(m.min.x - b->max.x, b->min.x - m.max.x),
                             c2d_max_num(m.min.y - b->max.y, b->min.y - m.max.y));
    /* The cast's steps are at least (gap - 1.25 tol) / speed long (turnsweep.c's bound (1): the mover's
     * speed along any direction is at most |d|, the member's surface's at most its turn times its reach),
     * so when gap is over 4 tol and 75 gap >= speed, fewer than its 200 steps cover the leg: the cast
     * ends having found nothing, which skipping it answers too. Nearer or faster, it is cast, so that
     * what a cast answers after its last step stays its own. */
    double speed = fabs(d.x) + fabs(d.y) + fabs(e->spin[i] * e->horizon) * reach_of(e, i);
    return !(gap > 4 * tol && 75 * gap >= speed);
}

const c2d_core *c2d_engine_core(const engine *e, int i)
{
    if (!is_turning(e, i) || e->clock == 0)
        return &e->set->core[i];
    turned_core *t = turned_of(e, i);
    if (t->clock != e->clock) {
        const c2d_core *k = &e->set->core[i];
        c2d_vec2 c = pivot_of(e, i);
        double sn, cs;
        c2d_sincos(e->spin[i] * e->clock, &sn, &cs);
        for (int j = 0; j < k->count; j++) {
            c2d_vec2 r = v2_sub(k->v[j], c);
            t->v[j] = v2(c.x + (cs * r.x - sn * r.y), c.y + (sn * r.x + cs * r.y));
        }
        for (int j = 0; j < c2d_core_edges(k); j++)
            t->n[j] = v2(cs * k->n[j].x - sn * k->n[j].y, sn * k->n[j].x + cs * k->n[j].y);
        t->core.v = t->v;
        t->core.n = k->count >= 2 ? t->n : NULL;
        t->clock = e->clock;
    }
    return &t->core;
}


/* Per-shape responses that ignore or cross a shape remove it from the union the mover meets: the
 * seams it made with solid neighbours are faces again (a brick passed through leaves the faces of
 * the bricks beside it exposed), so those neighbours' seams are recomputed among solid shapes. */
static c2d_status engine_seams(engine *e)
{
    const c2d_static_set *set = e->set;
    int n = set->n, any = 0;
    for (int j = 0; j < n && !any; j++)
        any = set->enabled[j] && !is_solid(e->responses[c2d_static_set_owner(set, j)]);
    if (!any)
        return C2D_OK;
    unsigned char *solid = (unsigned char *)malloc(2 * (size_t)n);
    c2d_seam_neighbour *scratch = (c2d_seam_neighbour *)malloc((size_t)n * sizeof *scratch);
    e->seam_at = (int *)malloc((size_t)n * sizeof(int));
    if (!solid || !scratch || !e->seam_at) {
        free(solid);
        free(scratch);
        return C2D_ERR_NO_MEMORY;
    }
    unsigned char *mark = solid + n;
    for (int j = 0; j < n; j++) {
        solid[j] = set->enabled[j] && is_solid(e->responses[c2d_static_set_owner(set, j)]);
        mark[j] = 0;
    }
    for (int j = 0; j < n; j++)
        if (set->enabled[j] && !solid[j])
            c2d_static_set_mark_near(set, j, solid, mark);
    size_t feats = 0;
    for (int i = 0; i < n; i++) {
        e->seam_at[i] = mark[i] ? (int)feats : -1;
        if (mark[i])
            feats += (size_t)set->core[i].count;
    }
    e->seam_ghost = (unsigned char *)malloc(feats > 0 ? feats : 1);
    e->seam_vcone = (c2d_cone *)malloc((feats > 0 ? feats : 1) * sizeof(c2d_cone));
    c2d_status st = e->seam_ghost && e->seam_vcone ? C2D_OK : C2D_ERR_NO_MEMORY;
    for (int i = 0; st == C2D_OK && i < n; i++)
        if (e->seam_at[i] >= 0)
            c2d_static_set_seams_among(set, i, solid, scratch, e->seam_ghost + e->seam_at[i],
                                       e->seam_vcone + e->seam_at[i]);
    free(solid);
    free(scratch);
    return st;
}

/* The least width of a convex core across all directions (0 for a point or a segment): rotating
 * calipers, the vertex farthest from each edge's line only ever advancing counter-clockwise. */
static double core_width(const c2d_vec2 *v, int n)
{
    if (n < 3)
        return 0;
    double best = INFINITY;
    int j = 1;
    for (int i = 0; i < n; i++) {
        c2d_vec2 a = v[i], d = v2_sub(v[(i + 1) % n], a);
        double len = v2_len(d);
        if (!(len > 0))
            continue;
        for (int steps = 0; steps < n && v2_cross(d, v2_sub(v[(j + 1) % n], a)) > v2_cross(d, v2_sub(v[j], a));
             steps++)
            j = (j + 1) % n;
        best = fmin(best, v2_cross(d, v2_sub(v[j], a)) / len);
    }
    return best;
}

void c2d_engine_set_horizon(engine *e, double horizon)
{
    const c2d_static_set *set = e->set;
    double extent = set->extent;
    for (int k = 0; k < set->loose_count && (e->velocity || e->ride_end > e->ride_first); k++)
        extent = c2d_max_num(extent, c2d_aabb_extent(set->entries[set->loose[k]].box) +
                                         2 * vec_magnitude(velocity_of(e, set->loose[k])) * horizon);
    /* A turning member sweeps the disc of its reach about its pivot. */
    for (int k = 0; k < set->loose_count && e->spin; k++)
        if (is_turning(e, set->loose[k]))
            extent = c2d_max_num(extent, 2 * reach_of(e, set->loose[k]) +
                                             2 * vec_magnitude(velocity_of(e, set->loose[k])) * horizon);
    e->horizon = horizon;
    e->reach = e->scale + extent;
}

c2d_status c2d_engine_init(engine *e, const c2d_static_set *set, const mover *a, const c2d_move_options *opt,
                           c2d_response deflt, double scale, double horizon)
{
    e->set = set;
    e->a = a;
    e->velocity = set->velocity;
    e->spin = set->spin;
    e->ride_first = e->ride_end = 0;
    e->ride_pivot = e->ride_velocity = v2(0, 0);
    e->ride_reach = 0;
    e->turned = NULL;
    e->turned_heap = NULL;
    e->n_turned = 0;
    e->clock = 0;
    e->clock0 = 0;
    e->one_way = set->one_way;
    e->turner = NULL;
    e->turn_angle = 0;
    e->origin = v2(0, 0);
    e->plain = NULL;
    e->full = NULL;
    e->capacity = 0;
    e->list = NULL;
    e->responses = opt ? opt->responses : NULL;
    e->response = opt && opt->response != C2D_RESPONSE_NONE ? opt->response : deflt;
    e->scale = scale;
    e->tol = c2d_sweep_tolerance(scale);
    /* A sweep's members move by their velocity times 1; c2d_engine_run's by theirs times its time. */
    e->horizon = horizon;
    e->reach = scale + set->extent;
    if (e->velocity || e->spin)
        c2d_engine_set_horizon(e, horizon);
    e->width = core_width(a->v, a->n) + 2 * a->r;
    e->heap = NULL;
    e->seam_at = NULL;
    e->seam_ghost = NULL;
    e->seam_vcone = NULL;
    if ((e->responses && engine_seams(e) != C2D_OK) || (e->spin && engine_turned(e) != C2D_OK)) {
        c2d_engine_free(e);
        return C2D_ERR_NO_MEMORY;
    }
    int cap = a->n + set->max_count;
    if (a->n == 1)
        return C2D_OK; /* the hull is the set's own core: no storage needed */
    if (cap <= STACK_HULL) {
        for (int k = 0; k < 2; k++) {
            e->buf[k].v = e->stack_v[k];
            e->buf[k].nrm = e->stack_v[k] + STACK_HULL;
            e->buf[k].bvert = e->stack_i[k];
            e->buf[k].avert = e->stack_i[k] + STACK_HULL;
        }
        return C2D_OK;
    }
    char *h = (char *)malloc(2 * (size_t)cap * (2 * sizeof(c2d_vec2) + 2 * sizeof(int)));
    if (!h) {
        c2d_engine_free(e);
        return C2D_ERR_NO_MEMORY;
    }
    e->heap = h;
    for (int k = 0; k < 2; k++) {
        e->buf[k].v = (c2d_vec2 *)h;
        e->buf[k].nrm = e->buf[k].v + cap;
        e->buf[k].bvert = (int *)(e->buf[k].nrm + cap);
        e->buf[k].avert = e->buf[k].bvert + cap;
        h = (char *)(e->buf[k].avert + cap);
    }
    return C2D_OK;
}

void c2d_engine_query(const engine *e, c2d_aabb box, c2d_set_visit visit, void *ctx)
{
    c2d_static_set_query(e->set, grow_box(box, engine_growth(e, box)), e->horizon, visit, ctx);
}

void c2d_engine_hull(const engine *e, int i, int slot, c2d_rhull *h, c2d_vec2 *shift)
{
    const c2d_core *b = c2d_engine_core(e, i);
    const mover *a = e->a;
    h->r = b->radius + a->r;
    if (a->n == 1) {
        h->n = b->count;
        h->v = b->v;
        h->nrm = b->n;
        h->bvert = h->avert = NULL;
        *shift = v2_sub(a->v[0], offset_of(e, i, e->clock));
        return;
    }
    const hull_buf *hb = &e->buf[slot];
    h->n = c2d_minkowski(b->v, b->n, b->count, a->v, a->nrm, a->n, hb->v, hb->nrm, hb->bvert, hb->avert);
    h->v = hb->v;
    h->nrm = hb->nrm;
    h->bvert = hb->bvert;
    h->avert = hb->avert;
    *shift = v2_neg(offset_of(e, i, e->clock));
}

c2d_vec2 c2d_engine_contact_point(engine *e, int i, const c2d_rhull_hit *f, c2d_vec2 p, double tau, int slot)
{
    c2d_rhull h;
    c2d_vec2 shift;
    if (!is_turning(e, i)) {
        const c2d_core *b = &e->set->core[i];
        c2d_engine_hull(e, i, slot, &h, &shift);
        return c2d_rhull_contact_point(&h, f, b->v, b->radius, offset_of(e, i, tau), e->a->v, e->a->r, p);
    }
    /* Turned to tau, where the two touch: midway between the closest points of the two cores then,
     * each moved out to its surface. */
    double clock = e->clock;
    e->clock = tau;
    const c2d_core *b = c2d_engine_core(e, i);
    const mover *a = e->a;
    c2d_vec2 own[STACK_HULL], *av = own;
    if (a->n > STACK_HULL && !(av = (c2d_vec2 *)malloc((size_t)a->n * sizeof *av)))
        av = NULL;
    c2d_vec2 q = v2_add(p, a->v[0]);
    if (av) {
        c2d_vec2 off = offset_of(e, i, tau); /* the member's translation, taken out of the mover */
        c2d_core ka = mover_core_at(a, v2_sub(p, off), av);
        c2d_vec2 pa, pb;
        c2d_core_distance(&ka, b, &pa, &pb);
        /* Touching to within the tolerance (to the last bit, when a character rides the member), the
         * line between the closest points is rounding's: the hit's normal then. */
        c2d_vec2 gap = v2_sub(pb, pa);
        c2d_vec2 n = v2_len(gap) > member_tol(e, i) ? v2_normalize_or(gap, v2_neg(f->normal)) : v2_neg(f->normal);
        q = v2_add(v2_scale(v2_add(v2_mad(pa, a->r, n), v2_mad(pb, -b->radius, n)), 0.5), off);
        if (av != own)
            free(av);
    }
    e->clock = clock;
    return q;
}

/* ---- first hit of a leg ---- */

/* Room for one more crossing in c: 0 when memory ran out. */
static int cross_room(cast_ctx *c)
{
    if (c->nx < c->xcap)
        return 1;
    int cap = 2 * c->xcap;
    struct crossing *grown = (struct crossing *)malloc((size_t)cap * sizeof *grown);
    if (!grown) {
        c->no_memory = 1;
        return 0;
    }
    memcpy(grown, c->x, (size_t)c->nx * sizeof *grown);
    if (c->x != c->xstack)
        free(c->x);
    c->x = grown;
    c->xcap = cap;
    return 1;
}

static void cast_turning(cast_ctx *c, int i, double tol);

void c2d_cast_hull(cast_ctx *c, int i, const c2d_rhull *h, c2d_vec2 shift, double tol)
{
    const engine *e = c->e;
    if (is_turning(e, i)) {
        cast_turning(c, i, tol);
        return;
    }
    c2d_seam_info seams = engine_seam_info(e, i);
    c2d_vec2 o = v2_add(c->p, shift), d = leg_relative(c, i);
    c2d_rhull_hit hit;
    if (c->cross) {
        /* A crossing is entering the shape, wherever the mover enters it: a seam with a neighbour hides
         * a face or corner from solid motions only (the union's surface), so a convex shape is all
         * surface here. A chain's or concave polygon's joints stay seams, so that passing from one of
         * its parts into the next is not entering it again. */
        const int *first = e->set->first;
        int owner = c2d_static_set_owner(e->set, i);
        if (!first || first[owner + 1] - first[owner] == 1) {
            seams.ghost_edge = NULL;
            seams.vcone = NULL;
        }
        /* Only entries count: a crossable shape the mover is already inside was reported before. */
        if (c2d_rhull_signed_distance(h, o, &hit) >= -tol && c2d_rhull_cast(h, &seams, o, d, c->tmax, tol, &hit) &&
            cross_room(c)) {
            c->x[c->nx].index = i;
            c->x[c->nx].hit = hit;
            c->nx++;
        }
        return;
    }
    /* A one-way shape the leg starts inside is being passed through; one entered from a side it does
     * not block from is entered, and passed through too. */
    int one_way = is_one_way(e, i);
    if (one_way && c2d_rhull_signed_distance(h, o, &hit) < -tol)
        return;
    if (c2d_rhull_cast(h, &seams, o, d, c->tmax, tol, &hit)) {
        if (one_way && !(v2_dot(hit.normal, e->one_way[i]) > C2D_SWEEP_DIR_TOL))
            return;
        if (c->index < 0 || hit.t < c->hit.t || (hit.t <= c->hit.t && i < c->index)) {
            c->index = i;
            c->hit = hit;
            c->hit_tol = tol;
            c->tmax = hit.t;
        }
    }
}

/* The cast of leg c against turning member i: the mover's translation against the member's turn
 * about its pivot (and its velocity), swept as c2d_sweep_motion sweeps them, at its touching
 * tolerance. The member's seams are not consulted: its parts are swept whole. */
static void cast_turning(cast_ctx *c, int i, double tol)
{
    const engine *e = c->e;
    const mover *a = e->a;
    c2d_rhull h;
    c2d_vec2 shift;
    c2d_rhull_hit hit;
    c2d_engine_hull(e, i, 0, &h, &shift);
    int one_way = is_one_way(e, i);
    if ((c->cross || one_way) && c2d_rhull_signed_distance(&h, v2_add(c->p, shift), &hit) < -tol)
        return; /* inside already: reported before, or being passed through */
    /* In the frame that the member's translation by the clock is taken out of. */
    c2d_vec2 off = offset_of(e, i, e->clock);
    c2d_vec2 own[STACK_HULL], *mv = own;
    if (a->n > STACK_HULL && !(mv = (c2d_vec2 *)malloc((size_t)a->n * sizeof *mv))) {
        c->no_memory = 1;
        return;
    }
    c2d_core ka = mover_core_at(a, v2_sub(c->p, off), mv);
    c2d_rigid ma = c2d_rigid_still(), mb;
    ma.v = c->d;
    mb.c = pivot_of(e, i);
    mb.v = v2_scale(velocity_of(e, i), c->dur);
    mb.w = e->spin[i] * c->dur;
    int found = 0;
    c2d_rigid_hit rh;
    c2d_status st = c2d_core_sweep_rigid(&ka, &ma, c2d_engine_core(e, i), &mb, c->tmax, tol, &found, &rh);
    if (mv != own)
        free(mv);
    if (st != C2D_OK) {
        c->no_memory = 1;
        return;
    }
    if (!found)
        return;
    hit.t = rh.t;
    hit.normal = v2_neg(rh.normal);
    hit.k = 0;
    hit.is_edge = 0;
    if (c->cross) {
        if (cross_room(c)) {
            c->x[c->nx].index = i;
            c->x[c->nx].hit = hit;
            c->nx++;
        }
        return;
    }
    if (one_way && !(v2_dot(hit.normal, e->one_way[i]) > C2D_SWEEP_DIR_TOL))
        return;
    if (c->index < 0 || hit.t < c->hit.t || (hit.t <= c->hit.t && i < c->index)) {
        c->index = i;
        c->hit = hit;
        c->hit_tol = tol;
        c->tmax = hit.t;
    }
}

int c2d_cast_visit(void *ctx, int i)
{
    cast_ctx *c = (cast_ctx *)ctx;
    const engine *e = c->e;
    c2d_response r = response_of(e, i);
    if (r == C2D_RESPONSE_NONE || (r == C2D_RESPONSE_CROSS) != c->cross)
        return 0;
    double tol = member_tol(e, i);
    if (!path_near(e, i, v2_sub(c->p, offset_of(e, i, e->clock)), leg_relative(c, i), tol))
        return 0;
    if (is_turning(e, i)) {
        cast_turning(c, i, tol);
        return 0;
    }
    c2d_rhull h;
    c2d_vec2 shift;
    c2d_engine_hull(e, i, 0, &h, &shift);
    c2d_cast_hull(c, i, &h, shift, tol);
    return 0;
}
