/* resolve.c - motions through a static set: the first contact (sweep), the shortest way out of the
 * union (push-out, seed 004's problem 2 without random nudges), bump.lua-style moves with touch, slide,
 * bounce and cross responses, and the ball stepper that bounces as often as a step requires.
 *
 * Every motion is one engine: the mover is a core (its vertices at the start, offset by p as it moves)
 * and each leg is a ray cast of p against the rounded Minkowski hull of every nearby shape, seams
 * excluded; the earliest hit ends the leg and its response shapes the next one. A ball is the mover
 * whose core is one point, so its hull is the brick's own core swollen by the ball's radius. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

/* More contacts than this in one call means a wedge narrower than the mover: stop instead of spinning. */
#define MAX_CONTACTS 256

/* ---- the shortest way out of the union ---- */

typedef struct gather_ctx {
    const engine *e;
    int *items;
    int count, capacity;
} gather_ctx;

static int gather_visit(void *ctx, int i)
{
    gather_ctx *g = (gather_ctx *)ctx;
    if (!holds(g->e, i))
        return 0;
    if (g->items && g->count < g->capacity)
        g->items[g->count] = i;
    g->count++;
    return 0;
}

static int compare_ints(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* The nearest point to o of surface feature `feat` of hull h (even: edge feat / 2 pushed out by the
 * radius; odd: the arc of corner feat / 2 within its cone of surface normals), in *q with the surface
 * normal there in *nq. Returns 0 when the feature is no surface (a seam, or a corner whose cone the
 * seams leave empty). */
static int surface_point(const c2d_rhull *h, const c2d_seam_info *seams, int feat, c2d_vec2 o, c2d_vec2 *q,
                         c2d_vec2 *nq)
{
    int k = feat >> 1;
    if (!(feat & 1)) {
        if (h->n < 2)
            return 0;
        c2d_vec2 a = h->v[k], e2 = v2_sub(h->v[(k + 1) % h->n], a);
        double u = v2_dot(v2_sub(o, a), e2) / v2_len2(e2);
        u = u < 0 ? 0 : (u > 1 ? 1 : u);
        *nq = h->nrm[k];
        if (!c2d_rhull_feature_is_surface(h, seams, k, 1, *nq))
            return 0;
        *q = v2_mad(v2_mad(a, u, e2), h->r, *nq);
        return 1;
    }
    c2d_cone cone = c2d_core_vertex_cone(h->nrm, h->n, k);
    if (seams->vcone)
        cone = c2d_cone_intersect(cone, seams->vcone[h->bvert ? h->bvert[k] : k]);
    if (cone.kind == C2D_CONE_EMPTY)
        return 0;
    c2d_vec2 mid = cone.kind == C2D_CONE_FULL   ? v2(0, 1)
                   : cone.kind == C2D_CONE_RAYS ? cone.lo
                                                : v2_normalize_or(v2_add(cone.lo, cone.hi), cone.lo);
    *nq = v2_normalize_or(v2_sub(o, h->v[k]), mid);
    if (!c2d_cone_contains(&cone, *nq))
        *nq = v2_dot(*nq, cone.lo) >= v2_dot(*nq, cone.hi) ? cone.lo : cone.hi;
    *q = v2_mad(h->v[k], h->r, *nq);
    return 1;
}

/* Whether o lies within slack of some surface feature of hull h. */
static int surface_within(const c2d_rhull *h, const c2d_seam_info *seams, c2d_vec2 o, double slack)
{
    for (int feat = 0; feat < 2 * h->n; feat++) {
        c2d_vec2 q, nq;
        if (surface_point(h, seams, feat, o, &q, &nq) && v2_len(v2_sub(q, o)) <= slack)
            return 1;
    }
    return 0;
}

/* Whether world point w lies on the surface of a solid shape other than `skip`: within slack of an edge
 * of its core (swollen by its radius) that is no seam, or of a circle's rim. */
typedef struct surf_ctx {
    const engine *e;
    int skip;
    c2d_vec2 w;
    double slack;
    int found;
} surf_ctx;

static int surf_visit(void *ctx, int j)
{
    surf_ctx *c = (surf_ctx *)ctx;
    if (j == c->skip || !holds(c->e, j))
        return 0;
    const c2d_core *k = &c->e->set->core[j];
    c2d_vec2 off = offset_of(c->e, j, c->e->clock), w = v2_sub(c->w, off);
    /* The point is a corner of one member, measured against another's surface: the tolerance of both. */
    double slack = c2d_max_num(c->slack, member_tol(c->e, j));
    if (k->count == 1) {
        c->found = fabs(v2_len(v2_sub(w, k->v[0])) - k->radius) <= slack;
        return c->found;
    }
    c2d_seam_info si = engine_seam_info(c->e, j);
    for (int m = 0; m < c2d_core_edges(k) && !c->found; m++) {
        if (si.ghost_edge && si.ghost_edge[m])
            continue;
        c2d_vec2 q = c2d_segment_closest(k->v[m], k->v[(m + 1) % k->count], w);
        c->found = fabs(v2_len(v2_sub(w, q)) - k->radius) <= slack;
    }
    return c->found;
}

/* The vertex of shape i's core that the mover touches at hull point o, when o is (within slack) a
 * corner of hull h; else -1. Near a hull corner the nearest feature may be either edge beside it. */
static int touched_vertex(const c2d_rhull *h, const c2d_rhull_hit *f, c2d_vec2 o, double slack)
{
    int ends[2] = {f->k, f->is_edge ? (f->k + 1) % h->n : -1};
    for (int t = 0; t < 2; t++) {
        int hk = ends[t];
        if (hk < 0 || !(v2_len(v2_sub(o, h->v[hk])) <= slack + h->r))
            continue;
        return h->bvert ? h->bvert[hk] : hk;
    }
    return -1;
}

typedef struct free_ctx {
    const engine *e;
    int skip;
    c2d_vec2 q;
    int blocked;
} free_ctx;

static int free_visit(void *ctx, int i)
{
    free_ctx *c = (free_ctx *)ctx;
    if (i == c->skip || !holds(c->e, i))
        return 0;
    c2d_rhull h;
    c2d_vec2 shift;
    c2d_rhull_hit f;
    c2d_engine_hull(c->e, i, 1, &h, &shift);
    double sd = c2d_rhull_signed_distance(&h, v2_add(c->q, shift), &f), tol = member_tol(c->e, i);
    if (sd < -tol) {
        c->blocked = 1;
    } else if (sd <= tol) {
        /* Touching a seam (a face another shape covers) is being inside their union: an exit onto
         * a face that lies flush against a neighbour's joined face is no way out. At a corner where
         * the seam meets the surface (a mover on a floor, its end over a joint) the surface is
         * touched as well, and that is outside. */
        c2d_seam_info seams = engine_seam_info(c->e, i);
        c2d_vec2 o = v2_add(c->q, shift);
        if (!c2d_rhull_feature_is_surface(&h, &seams, f.k, f.is_edge, f.normal) &&
            !surface_within(&h, &seams, o, tol)) {
            /* Touching the shape only at one of its corners, where other shapes' surfaces meet (the
             * reflex corner of a concave outline cut into parts: a part whose every edge is a joint
             * has its corner there), is touching the union's surface from outside. */
            int bv = touched_vertex(&h, &f, o, tol);
            surf_ctx sc;
            sc.found = 0;
            if (bv >= 0 && h.r == c->e->a->r) {
                sc.e = c->e;
                sc.skip = i;
                sc.w = v2_add(c->e->set->core[i].v[bv], offset_of(c->e, i, c->e->clock));
                sc.slack = tol;
                /* Grown by this slack, and by the query by any other member's tolerance (surf_visit). */
                c2d_aabb wb;
                wb.min = v2(sc.w.x - sc.slack, sc.w.y - sc.slack);
                wb.max = v2(sc.w.x + sc.slack, sc.w.y + sc.slack);
                c2d_engine_query(c->e, wb, surf_visit, &sc);
            }
            c->blocked = !sc.found;
        }
    }
    return c->blocked;
}

/* Whether the mover at offset q overlaps no solid shape of the set except `skip`. */
static int free_at(const engine *e, int skip, c2d_vec2 q)
{
    free_ctx c;
    c.e = e;
    c.skip = skip;
    c.q = q;
    c.blocked = 0;
    c2d_engine_query(e, mover_box(e->a, q, v2(0, 0), 0.0), free_visit, &c);
    return !c.blocked;
}

typedef struct path_ctx {
    const engine *e;
    c2d_vec2 p, d;
    int blocked;
} path_ctx;

static int path_visit(void *ctx, int i)
{
    path_ctx *c = (path_ctx *)ctx;
    if (!holds(c->e, i))
        return 0;
    c2d_rhull h;
    c2d_vec2 shift;
    c2d_rhull_hit f;
    c2d_engine_hull(c->e, i, 1, &h, &shift);
    c2d_vec2 o = v2_add(c->p, shift);
    double tol = member_tol(c->e, i);
    if (c2d_rhull_signed_distance(&h, o, &f) < -tol)
        return 0; /* already overlapped: leaving it is the point */
    c2d_seam_info seams = engine_seam_info(c->e, i);
    if (c2d_rhull_cast(&h, &seams, o, c->d, 1.0, tol, &f) && f.t < 1 - 1e-9)
        c->blocked = 1;
    return c->blocked;
}

/* Whether the straight push from p to q enters no shape the mover does not already overlap: a push
 * must not jump through a wall into the world outside. */
static int path_clear(const engine *e, c2d_vec2 p, c2d_vec2 q)
{
    path_ctx c;
    c.e = e;
    c.p = p;
    c.d = v2_sub(q, p);
    c.blocked = 0;
    c2d_engine_query(e, mover_box(e->a, p, c.d, 0.0), path_visit, &c);
    return !c.blocked;
}

/* Whether an exit len away must have its path checked (path_clear). One within the touching tolerance
 * is where the mover already is, as far as every test can tell: its "path" is a rounding error in some
 * direction, and a mover touching a shape beside it (a thin one at a chain's joint, touching both
 * segments there from outside the turn) would be taken to move into that shape, so the exit at its own
 * place was refused and push-out found a depth where there is none. */
static int path_needed(const engine *e, double len)
{
    return len > e->tol;
}

/* The solid shapes whose boxes meet box, sorted by index, in *items: the caller's stack array at
 * first, moved to (and then grown on) the heap when too small. */
static int gather(const engine *e, c2d_aabb box, int **items, int *capacity, int *count, const int *stack)
{
    gather_ctx g;
    g.e = e;
    g.items = *items;
    g.capacity = *capacity;
    g.count = 0;
    c2d_engine_query(e, box, gather_visit, &g);
    if (g.count > *capacity) {
        int *grown = (int *)realloc(*items == stack ? NULL : *items, (size_t)g.count * sizeof(int));
        if (!grown)
            return -1;
        *items = grown;
        *capacity = g.count;
        g.items = grown;
        g.capacity = g.count;
        g.count = 0;
        c2d_engine_query(e, box, gather_visit, &g);
    }
    if (g.count > 1)
        qsort(*items, (size_t)g.count, sizeof(int), compare_ints);
    *count = g.count;
    return 0;
}

/* The nearest exit offered by shape i's surface features to a mover at offset p: the nearest point of
 * each offset edge and of each corner arc that is surface (seams excluded) and leaves the mover in no
 * other shape (and, when clean, whose straight path enters no shape the mover is not already in).
 * Updates *best and the outputs when one is nearer than *best. */
static void exits_of(const engine *e, int i, c2d_vec2 p, int clean, double *best, c2d_vec2 *out_p,
                     int *out_index, c2d_rhull_hit *out_f)
{
    c2d_rhull h;
    c2d_vec2 shift;
    c2d_engine_hull(e, i, 0, &h, &shift);
    c2d_seam_info seams = engine_seam_info(e, i);
    c2d_vec2 o = v2_add(p, shift);
    for (int feat = 0; feat < 2 * h.n; feat++) {
        c2d_vec2 q, nq;
        if (!surface_point(&h, &seams, feat, o, &q, &nq))
            continue;
        double len = v2_len(v2_sub(q, o));
        if (!(len < *best))
            continue;
        c2d_vec2 np = v2_sub(q, shift);
        /* The shape itself too: on a hull of zero thickness a corner's cone may not be the
         * surface it claims, and its nearest point can lie inside the hull. (An exit within the
         * touching tolerance has no path to check: see path_needed.) */
        if (!free_at(e, -1, np) || (clean && path_needed(e, len) && !path_clear(e, p, np)))
            continue;
        *best = len;
        *out_p = np;
        *out_index = i;
        out_f->k = feat >> 1;
        out_f->is_edge = !(feat & 1);
        out_f->normal = nq;
        out_f->t = 0;
    }
}

/* A surface feature of a hull as a curve of the offset space: an edge pushed out by the radius, or a
 * corner arc with its cone of surface normals. */
typedef struct curve {
    int is_edge;
    c2d_vec2 a, b, n; /* edge: ends and normal */
    c2d_vec2 c;       /* arc: centre */
    double r;         /* arc: radius */
    c2d_cone cone;    /* arc: surface normals */
} curve;

/* Feature k (edge or corner) of shape i's hull as a curve; 0 when it is no surface (a seam, or a
 * corner of no radius, which is a point the single-feature exits already try). */
static int hull_curve(const c2d_rhull *h, const c2d_seam_info *seams, int k, int is_edge, curve *cv)
{
    cv->is_edge = is_edge;
    cv->r = h->r;
    if (is_edge) {
        if (h->n < 2)
            return 0;
        cv->n = h->nrm[k];
        if (!c2d_rhull_feature_is_surface(h, seams, k, 1, cv->n))
            return 0;
        cv->a = v2_mad(h->v[k], h->r, cv->n);
        cv->b = v2_mad(h->v[(k + 1) % h->n], h->r, cv->n);
        return 1;
    }
    if (!(h->r > 0))
        return 0;
    cv->c = h->v[k];
    cv->cone = c2d_core_vertex_cone(h->nrm, h->n, k);
    if (seams->vcone)
        cv->cone = c2d_cone_intersect(cv->cone, seams->vcone[h->bvert ? h->bvert[k] : k]);
    return cv->cone.kind != C2D_CONE_EMPTY;
}

/* Whether q (found on the curve's line or circle) lies on the curve itself; *n gets the normal there. */
static int on_curve(const curve *cv, c2d_vec2 q, c2d_vec2 *n)
{
    if (cv->is_edge) {
        c2d_vec2 e = v2_sub(cv->b, cv->a);
        double l2 = v2_len2(e), u = l2 > 0 ? v2_dot(v2_sub(q, cv->a), e) / l2 : 0;
        *n = cv->n;
        return u >= -1e-12 && u <= 1 + 1e-12;
    }
    *n = v2_normalize_or(v2_sub(q, cv->c), v2(0, 1));
    return c2d_cone_contains(&cv->cone, *n);
}

/* The points where two curves' lines or circles cross (up to 2). */
static int curves_cross(const curve *x, const curve *y, c2d_vec2 *q)
{
    if (!x->is_edge && y->is_edge)
        return curves_cross(y, x, q);
    if (x->is_edge && y->is_edge) {
        c2d_vec2 d1 = v2_sub(x->b, x->a), d2 = v2_sub(y->b, y->a);
        double den = v2_cross(d1, d2);
        if (den == 0)
            return 0;
        q[0] = v2_mad(x->a, v2_cross(v2_sub(y->a, x->a), d2) / den, d1);
        return 1;
    }
    if (x->is_edge) {
        /* |a + s d - c| = r, in the unit direction d. */
        c2d_vec2 d = v2_normalize_or(v2_sub(x->b, x->a), v2(1, 0)), w = v2_sub(x->a, y->c);
        /* r^2 - off^2 as a product: with a huge bumper both squares are huge and their difference
         * would keep only their rounding. */
        double b = v2_dot(w, d), off = v2_len(v2_mad(w, -b, d)), h2 = (y->r - off) * (y->r + off);
        if (h2 < 0)
            return 0;
        double h = sqrt(h2);
        q[0] = v2_mad(x->a, -b - h, d);
        q[1] = v2_mad(x->a, -b + h, d);
        return 2;
    }
    c2d_vec2 dc = v2_sub(y->c, x->c);
    double d = v2_len(dc);
    if (!(d > 0) || d > x->r + y->r || d < fabs(x->r - y->r))
        return 0;
    /* Measured from the smaller circle's centre, with every difference of squares as a product: for
     * a bumper a billion wide beside one a thousand wide, d^2 + rx^2 - ry^2 written out keeps only
     * the rounding of 1e18 (the crossing came out 0.05 inside the small one). */
    c2d_vec2 u = v2_scale(dc, 1 / d), t = v2(-u.y, u.x), m;
    double h;
    if (x->r <= y->r) {
        double along = ((d - y->r) * (d + y->r) + x->r * x->r) / (2 * d);
        h = sqrt(fmax((x->r - along) * (x->r + along), 0));
        m = v2_mad(x->c, along, u);
    } else {
        double along = ((d - x->r) * (d + x->r) + y->r * y->r) / (2 * d);
        h = sqrt(fmax((y->r - along) * (y->r + along), 0));
        m = v2_mad(y->c, -along, u);
    }
    q[0] = v2_mad(m, h, t);
    q[1] = v2_mad(m, -h, t);
    return 2;
}

/* The exits where the surfaces of shapes i and j meet: the union's corners between them (the way out
 * of the lens of two overlapping bumpers, where each one's nearest point lies inside the other).
 * Updates *best and the outputs as exits_of does. */
static void pair_exits(const engine *e, int i, int j, c2d_vec2 p, int clean, double *best, c2d_vec2 *out_p,
                       int *out_index, c2d_rhull_hit *out_f)
{
    c2d_rhull hi, hj;
    c2d_vec2 shift, shift_j;
    c2d_engine_hull(e, i, 0, &hi, &shift);
    c2d_engine_hull(e, j, 1, &hj, &shift_j);
    c2d_seam_info si = engine_seam_info(e, i), sj = engine_seam_info(e, j);
    c2d_vec2 o = v2_add(p, shift);
    double tol_i = member_tol(e, i), tol_j = member_tol(e, j);
    enum { MAX_Q = 64 };
    c2d_vec2 found[MAX_Q], normal[MAX_Q];
    int feat_of[MAX_Q], nq = 0;
    for (int fi = 0; fi < 2 * hi.n; fi++) {
        curve ci, cj;
        if (!hull_curve(&hi, &si, fi >> 1, !(fi & 1), &ci))
            continue;
        for (int fj = 0; fj < 2 * hj.n; fj++) {
            if (!hull_curve(&hj, &sj, fj >> 1, !(fj & 1), &cj))
                continue;
            c2d_vec2 q[2];
            int m = curves_cross(&ci, &cj, q);
            for (int k = 0; k < m; k++) {
                c2d_vec2 ni, nj;
                double len = v2_len(v2_sub(q[k], o));
                if (!(len < *best) || !on_curve(&ci, q[k], &ni) || !on_curve(&cj, q[k], &nj))
                    continue;
                /* On both surfaces for real, not inside either: the cone tests alone trust normals
                 * that a hull of zero thickness (two parallel segments) may not have. */
                c2d_rhull_hit f;
                if (c2d_rhull_signed_distance(&hi, q[k], &f) < -tol_i ||
                    c2d_rhull_signed_distance(&hj, q[k], &f) < -tol_j)
                    continue;
                /* Keep the nearest few; the freedom test below needs the hull buffers itself. When
                 * full, a nearer crossing replaces the farthest kept (the test used to read the last
                 * slot before it was written, the moment the buffer filled). */
                int at = nq;
                if (nq < MAX_Q) {
                    nq++;
                } else {
                    at = 0;
                    for (int w = 1; w < MAX_Q; w++)
                        if (v2_len(v2_sub(found[w], o)) > v2_len(v2_sub(found[at], o)))
                            at = w;
                    if (v2_len(v2_sub(found[at], o)) <= len)
                        continue;
                }
                found[at] = q[k];
                normal[at] = ni;
                feat_of[at] = fi;
            }
        }
    }
    for (int k = 0; k < nq; k++) {
        double len = v2_len(v2_sub(found[k], o));
        if (!(len < *best))
            continue;
        c2d_vec2 np = v2_sub(found[k], shift);
        /* The shape itself too: on a hull of zero thickness a corner's cone may not be the
         * surface it claims, and its nearest point can lie inside the hull. */
        if (!free_at(e, -1, np) || (clean && path_needed(e, len) && !path_clear(e, p, np)))
            continue;
        *best = len;
        *out_p = np;
        *out_index = i;
        out_f->k = feat_of[k] >> 1;
        out_f->is_edge = !(feat_of[k] & 1);
        out_f->normal = normal[k];
        out_f->t = 0;
    }
}

/* Whether the surfaces of shapes i and j (swollen by the mover) can meet: their boxes, grown by the
 * mover's size, overlap. */
static int may_meet(const engine *e, int i, int j)
{
    const c2d_aabb *a = &e->set->entries[i].box, *b = &e->set->entries[j].box;
    double g = fmax(e->a->box.max.x - e->a->box.min.x, e->a->box.max.y - e->a->box.min.y) +
               c2d_max_num(member_tol(e, i), member_tol(e, j));
    return a->min.x - g <= b->max.x && b->min.x - g <= a->max.x && a->min.y - g <= b->max.y &&
           b->min.y - g <= a->max.y;
}

/* Whether members i and j (both held) stand as one shape: the same core at the same place, moving
 * alike, with the same seams. Then their exits, and their crossings with any third shape, are the
 * same points. Fields are compared one by one, never struct bytes (padding is not set). */
static int same_member(const engine *e, int i, int j)
{
    const c2d_core *a = &e->set->core[i], *b = &e->set->core[j];
    int n = a->count, edges = c2d_core_edges(a);
    if (n != b->count || a->radius != b->radius)
        return 0;
    c2d_vec2 va = velocity_of(e, i), vb = velocity_of(e, j);
    if (va.x != vb.x || va.y != vb.y)
        return 0;
    for (int k = 0; k < n; k++)
        if (a->v[k].x != b->v[k].x || a->v[k].y != b->v[k].y)
            return 0;
    for (int k = 0; k < edges; k++)
        if (a->n[k].x != b->n[k].x || a->n[k].y != b->n[k].y)
            return 0;
    c2d_seam_info si = engine_seam_info(e, i), sj = engine_seam_info(e, j);
    if ((si.ghost_edge == NULL) != (sj.ghost_edge == NULL) || (si.vcone == NULL) != (sj.vcone == NULL))
        return 0;
    for (int k = 0; si.ghost_edge && k < edges; k++)
        if (si.ghost_edge[k] != sj.ghost_edge[k])
            return 0;
    for (int k = 0; si.vcone && k < n; k++) {
        const c2d_cone *x = &si.vcone[k], *y = &sj.vcone[k];
        if (x->kind != y->kind || x->lo.x != y->lo.x || x->lo.y != y->lo.y || x->hi.x != y->hi.x ||
            x->hi.y != y->hi.y)
            return 0;
    }
    return 1;
}

/* The solid shape the mover at offset p overlaps most deeply (deeper than touching). */
typedef struct deep_ctx {
    const engine *e;
    c2d_vec2 p;
    int index; /* -1: none */
    double sd;
    c2d_rhull_hit f;
    int near;          /* how many shapes are within touching distance (inside or out), up to 2, a
                        * shape and its copies counted once (see same_member) */
    int near_first;    /* the first of them */
    double near_tol;   /* the largest touching tolerance of the shapes within it (0: none) */
} deep_ctx;

static void deep_init(deep_ctx *c, const engine *e, c2d_vec2 p)
{
    c->e = e;
    c->p = p;
    c->index = -1;
    c->sd = -e->tol;
    c->f.k = 0;
    c->f.is_edge = 0;
    c->f.t = 0;
    c->f.normal = v2(0, 1);
    c->near = 0;
    c->near_first = -1;
    c->near_tol = 0;
}

/* Whether the mover, though no shape holds it deeper than touching, may be inside their union: a ball
 * smaller than the tolerance centred on the seam between two bricks is inside each by less than the
 * tolerance, and deep inside the row; so is a segment lying along the joint of two stacked bricks.
 * That takes a thin mover: one straddling a seam is as deep in one of the two shapes as half its width
 * across the seam. It lies within touching distance of two shapes, and may be inside either or
 * neither: lying exactly along their joint, rounding decides (a segment along the joint of two bricks
 * turned by an angle came out a hair outside both about one time in ten, and was not pushed out).
 * Only the exits can tell, and push_round looks: one within the touching tolerance, where the mover
 * already is, says it is outside (path_needed). */
static int deep_maybe_union(const deep_ctx *c)
{
    return c->near >= 2 && c->index < 0 && !(c->e->width > 4 * c->near_tol);
}

/* The depth test of shape i, whose hull h and shift are built, at its touching tolerance. */
static void deep_hull(deep_ctx *c, int i, const c2d_rhull *h, c2d_vec2 shift, double tol)
{
    c2d_rhull_hit f;
    double sd = c2d_rhull_signed_distance(h, v2_add(c->p, shift), &f);
    if (sd < tol) {
        c->near_tol = c2d_max_num(c->near_tol, tol);
        /* A tile stacked twice is one shape: touching it is not touching two (a thin mover on it
         * would be taken for one lying along a joint and pushed on). */
        if (c->near == 0)
            c->near_first = i;
        if (c->near == 0 || (c->near == 1 && !same_member(c->e, c->near_first, i)))
            c->near++;
    }
    /* Deeper than touching; equal depths go to the lowest index, whatever order the grid reports the
     * shapes in. */
    if (sd < -tol && (c->index < 0 || sd < c->sd || (sd == c->sd && i < c->index))) {
        c->sd = sd;
        c->index = i;
        c->f = f;
    }
}

static int deepest_visit(void *ctx, int i)
{
    deep_ctx *c = (deep_ctx *)ctx;
    if (!holds(c->e, i))
        return 0;
    c2d_rhull h;
    c2d_vec2 shift;
    c2d_engine_hull(c->e, i, 0, &h, &shift);
    deep_hull(c, i, &h, shift, member_tol(c->e, i));
    return 0;
}

/* Drops from items (ascending indices) every member that stands as one with an earlier one kept
 * (a tile stacked twice at one place): its exits and crossings are the kept copy's, found first, and
 * ties go to the lowest index, so the answer is the same. Without this, n copies cost n^3 hull
 * builds: every pair's crossings, each tested against every shape. Only members with the same box
 * are compared. Returns the new count. */
static int drop_copies(const engine *e, int *items, int count)
{
    int kept = 0;
    for (int j = 0; j < count; j++) {
        const c2d_aabb *bj = &e->set->entries[items[j]].box;
        int copy = 0;
        for (int k = 0; k < kept && !copy; k++) {
            const c2d_aabb *bk = &e->set->entries[items[k]].box;
            copy = bk->min.x == bj->min.x && bk->min.y == bj->min.y && bk->max.x == bj->max.x &&
                   bk->max.y == bj->max.y && same_member(e, items[k], items[j]);
        }
        if (!copy)
            items[kept++] = items[j];
    }
    return kept;
}

/* One round of push-out at offset p. Returns 0 when the mover overlaps nothing (deeper than touching),
 * 1 with the new offset, shape index and feature (normal facing the mover) otherwise, or -1 when memory
 * ran out. The exits are searched outwards in boxes of doubling size, so that a mover deep inside a
 * block of bricks whose gaps are too narrow for it still finds the nearest way out of the block; an
 * exit found within the searched distance cannot be beaten by a shape outside the box. Ties go to the
 * lowest index, then to the feature order. Exits whose straight path would cross another shape (a wall
 * between the mover and the world outside) are taken only when there is no other. If no exit is free (the mover is walled in), the
 * deepest shape's own way out is taken and the next round goes on from there. */
static int push_round(const engine *e, c2d_vec2 p, c2d_vec2 *out_p, int *out_index, c2d_rhull_hit *out_f,
                      double *out_depth)
{
    /* Almost every call starts clear of the set: find that straight from the grid, without gathering
     * and sorting the shapes nearby. */
    deep_ctx dc;
    deep_init(&dc, e, p);
    c2d_engine_query(e, mover_box(e->a, p, v2(0, 0), 0.0), deepest_visit, &dc);
    int deepest = dc.index;
    double deepest_sd = dc.sd;
    c2d_rhull_hit deepest_f = dc.f;
    int shallow = deep_maybe_union(&dc);
    if (deepest < 0 && !shallow)
        return 0;
    int stack[32];
    int *items = stack, capacity = 32, count = 0;
    if (out_depth)
        *out_depth = -deepest_sd;
    const c2d_static_set *set = e->set;
    double span = fmax(set->gw, set->gh) * set->cell + fmax(fabs(p.x - set->origin.x), fabs(p.y - set->origin.y));
    /* The search starts at the mover's size, and at least at the touching tolerance: a mover of no
     * size (a point, or a rectangle of denormal width) would otherwise double a reach of 0 forever. */
    double reach = fmax(e->a->box.max.x - e->a->box.min.x, e->a->box.max.y - e->a->box.min.y);
    reach = fmax(reach, e->tol);
    double best = INFINITY, reach0 = reach;
    /* First only exits reached without passing through another shape; failing that, any exit. */
    for (int clean = 1; clean >= 0 && best == INFINITY; clean--) {
        for (reach = reach0;; reach *= 2) {
            if (gather(e, mover_box(e->a, p, v2(0, 0), reach), &items, &capacity, &count, stack) < 0) {
                if (items != stack)
                    free(items);
                return -1;
            }
            count = drop_copies(e, items, count);
            best = INFINITY;
            for (int j = 0; j < count; j++)
                exits_of(e, items[j], p, clean, &best, out_p, out_index, out_f);
            for (int j = 0; j < count; j++)
                for (int k = j + 1; k < count; k++)
                    if (may_meet(e, items[j], items[k])) /* gather kept only shapes that hold */
                        pair_exits(e, items[j], items[k], p, clean, &best, out_p, out_index, out_f);
            /* Clean exits are looked for nearby only: far away, any way out is as good. */
            if (best <= reach || reach > 2 * span || (clean && reach > 8 * reach0))
                break;
        }
    }
    if (shallow && !(best > dc.near_tol && best < INFINITY)) {
        /* In the union no deeper than touching (or with no way out to offer): as before, overlapping
         * nothing. */
        if (items != stack)
            free(items);
        return 0;
    }
    if (shallow && out_depth)
        *out_depth = best;
    if (best == INFINITY) {
        *out_p = v2_mad(p, -deepest_sd, deepest_f.normal);
        *out_index = deepest;
        *out_f = deepest_f;
    }
    if (items != stack)
        free(items);
    return 1;
}

/* ---- the first leg ---- */

/* The first leg's query also answers the push-out's first question, whether the mover starts inside a
 * solid shape: the shapes whose boxes meet the mover's box at the start are among those the leg's box
 * meets, and their hulls serve both tests. When it starts clear (almost always), the push-out rounds
 * have nothing to do and the leg's cast is already made: one grid query and one hull per nearby shape
 * instead of two of each. */
typedef struct first_ctx {
    cast_ctx *cast;
    deep_ctx deep;
    c2d_aabb box0; /* the mover's box at the start, as push_round queries it */
} first_ctx;

static int first_visit(void *ctx, int i)
{
    first_ctx *f = (first_ctx *)ctx;
    cast_ctx *c = f->cast;
    const engine *e = c->e;
    if (!is_solid(response_of(e, i)))
        return 0;
    const c2d_aabb *b = &e->set->entries[i].box, *b0 = &f->box0;
    /* The first leg starts at time 0, where every member stands as placed. */
    int at_start = holds(e, i) && b->min.x <= b0->max.x && b0->min.x <= b->max.x && b->min.y <= b0->max.y &&
                   b0->min.y <= b->max.y;
    double tol = member_tol(e, i);
    int on_path = path_near(e, i, c->p, leg_relative(c, i), tol);
    if (!at_start && !on_path)
        return 0;
    c2d_rhull h;
    c2d_vec2 shift;
    c2d_engine_hull(e, i, 0, &h, &shift);
    if (at_start)
        deep_hull(&f->deep, i, &h, shift, tol);
    if (on_path)
        c2d_cast_hull(c, i, &h, shift, tol);
    return 0;
}

/* Runs the first leg from p along d into c (as the leg loop would) together with the push-out's
 * overlap test. Returns 1 when the mover starts clear, so that c holds the leg's solid hit; 0 when it
 * starts inside a shape, and the push-out must run first. */
static int first_leg(const engine *e, c2d_vec2 p, c2d_vec2 d, double dur, cast_ctx *c)
{
    first_ctx f;
    f.cast = c;
    c->e = e;
    c->p = p;
    c->d = d;
    c->dur = dur;
    c->cross = 0;
    c->tmax = 1.0;
    c->index = -1;
    c->nx = 0;
    deep_init(&f.deep, e, p);
    /* The start's box grown as the path's: at worst a few more members for the depth test, which
     * decides by each one's own tolerance. */
    c2d_aabb box = mover_box(e->a, p, d, 0.0);
    double g = engine_start_growth(e);
    f.box0 = grow_box(mover_box(e->a, p, v2(0, 0), 0.0), g);
    c2d_static_set_query(e->set, grow_box(box, g), e->horizon, first_visit, &f);
    return f.deep.index < 0 && !deep_maybe_union(&f.deep);
}

/* ---- the engine ---- */

/* Writes contact c, the mover then at offset p with velocity vel, to the engine's records when there
 * is room; counts it in any case. */
static void record(const engine *e, c2d_move_result *res, const c2d_sweep_contact *c, c2d_vec2 p, c2d_vec2 vel)
{
    c2d_contact_record *r = NULL;
    if (e->list)
        r = c2d_record_list_push(e->list);
    else if (res->count < e->capacity && e->plain)
        e->plain[res->count] = *c;
    else if (res->count < e->capacity)
        r = &e->full[res->count];
    if (r) {
        r->contact = *c;
        r->position = v2_add(e->origin, p);
        r->velocity = vel;
        r->id = 0;
        r->user = 0;
    }
    res->count++;
}

/* The contact record for shape i at mover offset p through hull feature f, at time tau of the call
 * (where a moving member then stands). */
static c2d_sweep_contact make_contact(engine *e, int i, const c2d_rhull_hit *f, c2d_vec2 p, double tau, double t,
                                      c2d_response r, int pushed)
{
    c2d_sweep_contact c;
    c2d_rhull h;
    c2d_vec2 shift;
    const c2d_core *b = &e->set->core[i];
    memset(&c, 0, sizeof c); /* the padding after index too: the same bytes every time, comparable whole */
    c2d_engine_hull(e, i, 1, &h, &shift);
    c.index = c2d_static_set_owner(e->set, i); /* the caller's shape, of which i may be a part */
    c.t = t;
    c.normal = f->normal;
    /* The point on the shape's surface: midway point moved out to B's side (they coincide at a hit). */
    c2d_vec2 mid =
        c2d_rhull_contact_point(&h, f, b->v, b->radius, offset_of(e, i, tau), e->a->v, e->a->r, p);
    c.point = mid;
    c.response = r;
    c.pushed_out = pushed;
    return c;
}

static int compare_cross(const void *x, const void *y)
{
    const c2d_sweep_contact *a = (const c2d_sweep_contact *)x, *b = (const c2d_sweep_contact *)y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* A crossing of one leg as recorded: the contact (first, for compare_cross) and where the mover was. */
typedef struct cross_rec {
    c2d_sweep_contact c;
    c2d_vec2 p;
} cross_rec;

/* Grows run's per-leg crossing arrays to hold n each (realloc keeps what *entered holds). */
static int grow_crossings(cross_rec **xs, int **now, int **entered, int *cap, int n)
{
    cross_rec *a = (cross_rec *)realloc(*xs, (size_t)n * sizeof **xs);
    if (!a)
        return 0;
    *xs = a;
    int *b = (int *)realloc(*now, (size_t)n * sizeof(int));
    if (!b)
        return 0;
    *now = b;
    int *en = (int *)realloc(*entered, (size_t)n * sizeof(int));
    if (!en)
        return 0;
    *entered = en;
    *cap = n;
    return 1;
}

/* Runs the mover from offset *p with velocity *vel for time T; updates both. The contacts go where
 * the engine says. */
static c2d_status run(engine *e, c2d_vec2 *p_io, c2d_vec2 *vel_io, double T, double restitution, double friction,
                      c2d_move_result *res)
{
    c2d_vec2 p = *p_io, vel = *vel_io;
    memset(res, 0, sizeof *res);
    if (e->velocity)
        c2d_engine_set_horizon(e, T);
    else
        e->horizon = T;
    e->clock = 0;
    /* Moving members can run into a mover that stands still: then a leg is cast even without motion. */
    int moving = 0;
    for (int k = 0; k < e->set->loose_count && e->velocity && !moving; k++) {
        c2d_vec2 w = e->velocity[e->set->loose[k]];
        moving = e->set->enabled[e->set->loose[k]] && (w.x != 0 || w.y != 0);
    }
    cast_ctx c;
    cross_init(&c);
    /* The first leg made with the overlap test (see first_leg): then the push-out has nothing to do. */
    int first_made = T > 0 && (moving || v2_len(v2_scale(vel, T)) > 0) && first_leg(e, p, v2_scale(vel, T), T, &c);
    for (int round = 0; round < MAX_PUSHES && !first_made; round++) {
        c2d_vec2 np;
        int index;
        c2d_rhull_hit f;
        int r = push_round(e, p, &np, &index, &f, NULL);
        if (r < 0)
            return C2D_ERR_NO_MEMORY;
        if (r == 0)
            break;
        p = np;
        c2d_sweep_contact pc = make_contact(e, index, &f, p, 0.0, 0.0, response_of(e, index), 1);
        record(e, res, &pc, p, vel);
    }
    int any_cross = e->response == C2D_RESPONSE_CROSS;
    if (e->responses)
        for (int i = 0; i < e->set->n_public && !any_cross; i++)
            any_cross = e->responses[i] == C2D_RESPONSE_CROSS;
    double speed = v2_len(vel), remaining = T, elapsed = 0;
    c2d_vec2 last_n = v2(0, 0); /* normal of the previous contact, while no distance was covered since */
    int pinned = 0;
    /* Crossable shapes entered exactly where the previous leg ended: the next leg starts touching them
     * and would meet them again at its start. */
    int *entered = NULL, n_entered = 0;
    /* Per leg with crossings: each as recorded, and which of them the leg ends in; grown with the
     * most crossings of a leg. */
    cross_rec *xs = NULL;
    int *now = NULL, xs_cap = 0;
    c2d_status status = C2D_OK;
    while (remaining > 0) {
        c2d_vec2 d = v2_scale(vel, remaining);
        double dl = v2_len(d);
        if (!(dl > 0) && !moving)
            break;
        e->clock = elapsed;
        if (first_made) {
            first_made = 0;
        } else {
            c.e = e;
            c.p = p;
            c.d = d;
            c.dur = remaining;
            c.cross = 0;
            c.tmax = 1.0;
            c.index = -1;
            c.nx = 0;
            c2d_engine_query(e, mover_box(e->a, p, d, 0.0), c2d_cast_visit, &c);
        }
        double t = c.index >= 0 ? c.hit.t : 1.0;
        if (any_cross) {
            c.cross = 1;
            c.tmax = t;
            c2d_engine_query(e, mover_box(e->a, p, d, 0.0), c2d_cast_visit, &c);
            if (c.no_memory || (c.nx > xs_cap && !grow_crossings(&xs, &now, &entered, &xs_cap, c.nx))) {
                status = C2D_ERR_NO_MEMORY;
                break;
            }
            int nxs = 0, n_now = 0;
            for (int k = 0; k < c.nx; k++) {
                const struct crossing *x = &c.x[k];
                double xtol = member_tol(e, x->index);
                int again = 0;
                for (int j = 0; j < n_entered && !again; j++)
                    again = entered[j] == x->index && x->hit.t * dl <= xtol;
                if (again)
                    continue;
                /* Entered where the leg ends: within the crossing's tolerance or the solid one's. */
                if (c.index >= 0 && (t - x->hit.t) * dl <= c2d_max_num(xtol, c.hit_tol))
                    now[n_now++] = x->index;
                double tau = elapsed + x->hit.t * remaining;
                xs[nxs].p = v2_mad(p, x->hit.t, d);
                xs[nxs].c = make_contact(e, x->index, &x->hit, xs[nxs].p, tau, tau / T, C2D_RESPONSE_CROSS, 0);
                nxs++;
            }
            if (nxs > 1)
                qsort(xs, (size_t)nxs, sizeof xs[0], compare_cross);
            for (int k = 0; k < nxs; k++)
                record(e, res, &xs[k].c, xs[k].p, vel);
            if (n_now > 0)
                memcpy(entered, now, (size_t)n_now * sizeof now[0]);
            n_entered = n_now;
        }
        if (c.index < 0) {
            p = v2_add(p, d);
            res->travelled += dl;
            break;
        }
        p = v2_mad(p, t, d);
        res->travelled += t * dl;
        if (t * dl > c.hit_tol)
            pinned = 0;
        elapsed += t * remaining;
        remaining -= t * remaining;
        c2d_response r = response_of(e, c.index);
        c2d_sweep_contact ct = make_contact(e, c.index, &c.hit, p, elapsed, elapsed / T, r, 0);
        /* The response acts on the motion relative to the shape met, which is the motion itself unless
         * the shape moves: a moving paddle is a wall in its own frame. */
        c2d_vec2 w = velocity_of(e, c.index), rel = v2_sub(vel, w);
        int still = w.x == 0 && w.y == 0, stop = 0;
        c2d_vec2 n = c.hit.normal;
        double vn = v2_dot(rel, n);
        c2d_vec2 prev_n = last_n;
        int was_pinned = pinned;
        last_n = n;
        pinned = 1;
        if (r == C2D_RESPONSE_TOUCH) {
            /* Stopped against the shape: at rest, or carried along by a moving one. */
            rel = v2(0, 0);
            stop = still;
        } else if (r == C2D_RESPONSE_SLIDE) {
            rel = v2_mad(rel, -vn, n);
            /* Slid into a second surface without moving: in a crease (two surfaces meeting at less
             * than a half-turn) the only motion allowed by both is none. Without this the motion
             * would ping-pong between them, shrinking but never vanishing. */
            if (was_pinned && v2_dot(rel, prev_n) < -C2D_SWEEP_DIR_TOL * v2_len(rel))
                rel = v2(0, 0);
            speed = v2_len(still ? rel : v2_add(rel, w)); /* what later elastic bounces keep */
        } else if (vn < 0) {
            /* Bounce: the normal part turns round scaled by restitution; friction takes away up to
             * friction times the normal impulse from the tangential part. A corner's normal is the
             * line from the corner to the centre at contact, which is seed 004's beta = 2 theta - alpha. */
            c2d_vec2 vt = v2_mad(rel, -vn, n);
            double jn = -(1.0 + restitution) * vn;
            c2d_vec2 nv = v2_mad(rel, jn, n);
            double tl = v2_len(vt);
            if (friction > 0 && tl > 0)
                nv = v2_mad(nv, -fmin(tl, friction * jn) / tl, vt);
            if (restitution >= 1 && friction <= 0 && still) {
                double l = v2_len(nv);
                if (l > 0)
                    nv = v2_scale(nv, speed / l); /* the speed is kept exactly, not just to rounding */
            }
            int facing = v2_dot(n, prev_n) < -1 + 1e-6;
            if (was_pinned && facing && v2_dot(nv, prev_n) < -C2D_SWEEP_DIR_TOL * v2_len(nv)) {
                /* Jammed between two facing surfaces it touches at once (a slot exactly its size):
                 * bouncing would hit the other at once, for ever. Keep only what both allow, as a
                 * slide. (In a wedge the bounces turn the motion round and out: those go on.) */
                nv = v2_mad(rel, -vn, n);
                if (v2_dot(nv, prev_n) < -C2D_SWEEP_DIR_TOL * v2_len(nv))
                    nv = v2(0, 0);
                speed = v2_len(still ? nv : v2_add(nv, w));
            }
            rel = nv;
            if (!still)
                speed = v2_len(v2_add(rel, w)); /* a moving paddle changes the speed it hands back */
        }
        c2d_vec2 after = still ? rel : v2_add(rel, w); /* adding a zero would turn a -0 into +0 */
        record(e, res, &ct, p, after);
        if (res->count > MAX_CONTACTS) {
            res->truncated = 1; /* cut short before this contact's response, as it always was */
            break;
        }
        vel = after;
        if (stop)
            break;
    }
    if (c.x != c.xstack)
        free(c.x);
    free(xs);
    free(now);
    free(entered);
    if (status != C2D_OK)
        return status;
    res->displacement = v2_sub(p, *p_io);
    res->velocity = vel;
    *p_io = p;
    *vel_io = vel;
    return C2D_OK;
}

/* ---- public calls ---- */

c2d_move_options c2d_move_options_default(void)
{
    c2d_move_options o;
    o.response = C2D_RESPONSE_NONE;
    o.responses = NULL;
    o.restitution = 1.0;
    o.friction = 0.0;
    return o;
}

static c2d_status check_options(const c2d_move_options *o, int n)
{
    if (!o)
        return C2D_OK;
    if (o->responses)
        for (int i = 0; i < n; i++)
            if ((int)o->responses[i] < 0 || (int)o->responses[i] > C2D_RESPONSE_CROSS)
                return C2D_ERR_RANGE;
    if (!isfinite(o->restitution) || !isfinite(o->friction))
        return C2D_ERR_NOT_FINITE;
    if (o->restitution < 0 || o->restitution > 1 || o->friction < 0 || o->friction > C2D_MAX_COORDINATE ||
        (int)o->response < 0 || (int)o->response > C2D_RESPONSE_CROSS)
        return C2D_ERR_RANGE;
    return C2D_OK;
}

/* The mover of a shape: its core placed in the world. Free with mover_free. A chain or concave
 * polygon is no convex core: it cannot be moved through a set (yet). */
static c2d_status mover_of_shape(const c2d_shape *s, mover *m)
{
    c2d_vec2 *v = m->own, *nv = m->own_n;
    m->heap = NULL;
    if (c2d_is_compound(s))
        return C2D_ERR_NOT_CONVEX;
    if (s->count > C2D_PAIR_STACK) {
        m->heap = (c2d_vec2 *)malloc(2 * (size_t)s->count * sizeof(c2d_vec2));
        if (!m->heap)
            return C2D_ERR_NO_MEMORY;
        v = m->heap;
        nv = m->heap + s->count;
    }
    c2d_core k = c2d_world_core(s, v, nv);
    m->v = v;
    m->nrm = k.n;
    m->n = s->count;
    m->r = s->radius;
    m->box = c2d_shape_aabb(s);
    return C2D_OK;
}

static void mover_free(mover *m)
{
    free(m->heap);
    m->heap = NULL;
}

c2d_status c2d_static_set_sweep(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                                c2d_toi *out, int *index)
{
    if (!set || !mover_shape || !out || !index)
        return C2D_ERR_NULL;
    c2d_status st = c2d_check_vec(displacement);
    if (st != C2D_OK)
        return st;
    mover a;
    if ((st = mover_of_shape(mover_shape, &a)) != C2D_OK)
        return st;
    engine e;
    st = c2d_engine_init(&e, set, &a, NULL, C2D_RESPONSE_SLIDE,
                         c2d_max_num(c2d_aabb_magnitude(a.box), vec_magnitude(displacement)));
    if (st != C2D_OK) {
        mover_free(&a);
        return st;
    }
    c2d_toi r;
    memset(&r, 0, sizeof r);
    r.t = 1;
    int hit_index = -1;
    cast_ctx c;
    cross_init(&c); /* solid casts only: the storage stays unused */
    c.e = &e;
    c.p = v2(0, 0);
    c.d = displacement;
    c.dur = 1.0;
    c.cross = 0;
    c.tmax = 1.0;
    c.index = -1;
    c.nx = 0;
    c2d_vec2 np;
    c2d_rhull_hit f;
    /* Overlap first: reported with the shape and the normal of the shortest way out. */
    double deepest = 0;
    int pr = push_round(&e, c.p, &np, &hit_index, &f, &deepest);
    if (pr < 0) {
        c2d_engine_free(&e);
        mover_free(&a);
        return C2D_ERR_NO_MEMORY;
    }
    if (pr > 0) {
        c2d_rhull h;
        c2d_vec2 shift;
        c2d_rhull_hit sf;
        c2d_engine_hull(&e, hit_index, 0, &h, &shift);
        r.state = C2D_TOI_OVERLAP;
        r.t = 0;
        r.depth = -c2d_rhull_signed_distance(&h, shift, &sf);
        /* The shortest way out may leave through the surface of a shape the mover does not overlap
         * (the top of the brick beside the one it is in): the depth is then the length of that way
         * out, which is what moving the mover by depth along -normal takes. */
        if (!(r.depth > 0))
            r.depth = v2_len(np);
        /* An exit where the mover stands would be free only if no shape held it deeper than
         * touching, which the overlap test found one does (both take the same tolerance, see
         * member_tol): a guard, should rounding put one there, with the deepest shape's depth. */
        if (!(r.depth > 0))
            r.depth = deepest;
        r.normal = v2_neg(f.normal);
        r.point = c2d_rhull_contact_point(&h, &sf, set->core[hit_index].v, set->core[hit_index].radius,
                                          v2(0, 0), a.v, a.r, v2(0, 0));
    } else {
        c2d_engine_query(&e, mover_box(&a, c.p, displacement, 0.0), c2d_cast_visit, &c);
        hit_index = c.index;
        if (c.index >= 0) {
            c2d_rhull h;
            c2d_vec2 shift;
            c2d_engine_hull(&e, c.index, 0, &h, &shift);
            r.state = C2D_TOI_HIT;
            r.t = c.hit.t;
            r.normal = v2_neg(c.hit.normal);
            r.point = c2d_rhull_contact_point(&h, &c.hit, set->core[c.index].v, set->core[c.index].radius,
                                              offset_of(&e, c.index, c.hit.t), a.v, a.r,
                                              v2_scale(displacement, c.hit.t));
        }
    }
    c2d_engine_free(&e);
    mover_free(&a);
    *out = r;
    *index = hit_index >= 0 ? c2d_static_set_owner(set, hit_index) : -1;
    return C2D_OK;
}

c2d_status c2d_static_set_push_out(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 *out)
{
    if (!set || !mover_shape || !out)
        return C2D_ERR_NULL;
    mover a;
    c2d_status st = mover_of_shape(mover_shape, &a);
    if (st != C2D_OK)
        return st;
    engine e;
    st = c2d_engine_init(&e, set, &a, NULL, C2D_RESPONSE_SLIDE, c2d_aabb_magnitude(a.box));
    if (st != C2D_OK) {
        mover_free(&a);
        return st;
    }
    c2d_vec2 p = v2(0, 0);
    for (int round = 0; round < MAX_PUSHES; round++) {
        c2d_vec2 np;
        int index;
        c2d_rhull_hit f;
        int r = push_round(&e, p, &np, &index, &f, NULL);
        if (r < 0) {
            c2d_engine_free(&e);
        mover_free(&a);
            return C2D_ERR_NO_MEMORY;
        }
        if (r == 0)
            break;
        p = np;
    }
    c2d_engine_free(&e);
    mover_free(&a);
    *out = p;
    return C2D_OK;
}

/* A motion's record list once the motion is decided: C2D_ERR_NO_MEMORY when it could not hold every
 * record, else report's answer to all of them (when there is a report), which becomes the call's. */
static c2d_status list_done(const c2d_record_list *list, c2d_records_fn report, void *ctx)
{
    if (list->no_memory)
        return C2D_ERR_NO_MEMORY;
    return report ? report(ctx, list->items, list->count) : C2D_OK;
}

/* The move of c2d_static_set_move, its contacts to plain or full records. */
static c2d_status set_move(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                           const c2d_move_options *options, c2d_move_result *result, c2d_sweep_contact *plain,
                           c2d_contact_record *full, int capacity, c2d_record_list *list, c2d_records_fn report,
                           void *report_ctx)
{
    if (!set || !mover_shape || !result || (capacity > 0 && !plain && !full))
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    c2d_status st = c2d_check_vec(displacement);
    if (st == C2D_OK)
        st = check_options(options, set->n_public);
    if (st != C2D_OK)
        return st;
    mover a;
    if ((st = mover_of_shape(mover_shape, &a)) != C2D_OK)
        return st;
    engine e;
    st = c2d_engine_init(&e, set, &a, options, C2D_RESPONSE_SLIDE,
                         c2d_max_num(c2d_aabb_magnitude(a.box), vec_magnitude(displacement)));
    if (st != C2D_OK) {
        mover_free(&a);
        return st;
    }
    e.plain = plain;
    e.full = full;
    e.capacity = capacity;
    e.list = list;
    e.origin = mover_shape->pos;
    /* The defaults of c2d_move_options_default, without copying a whole options struct. */
    double restitution = options ? options->restitution : 1.0, friction = options ? options->friction : 0.0;
    c2d_vec2 p = v2(0, 0), vel = displacement;
    c2d_move_result res;
    st = run(&e, &p, &vel, 1.0, restitution, friction, &res);
    c2d_engine_free(&e);
    mover_free(&a);
    if (st == C2D_OK && list)
        st = list_done(list, report, report_ctx);
    if (st == C2D_OK)
        *result = res;
    return st;
}

c2d_status c2d_static_set_move(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                               const c2d_move_options *options, c2d_move_result *result,
                               c2d_sweep_contact *contacts, int capacity)
{
    return set_move(set, mover_shape, displacement, options, result, contacts, NULL, capacity, NULL, NULL, NULL);
}

c2d_status c2d_static_set_move_records(const c2d_static_set *set, const c2d_shape *mover_shape,
                                       c2d_vec2 displacement, const c2d_move_options *options,
                                       c2d_move_result *result, c2d_contact_record *records, int capacity)
{
    return set_move(set, mover_shape, displacement, options, result, NULL, records, capacity, NULL, NULL, NULL);
}

/* The step of c2d_static_set_step_ball, its contacts to plain or full records. */
static c2d_status set_step_ball(const c2d_static_set *set, c2d_ball *ball, double dt, const c2d_move_options *options,
                                c2d_move_result *result, c2d_sweep_contact *plain, c2d_contact_record *full,
                                int capacity, c2d_record_list *list, c2d_records_fn report, void *report_ctx)
{
    if (!set || !ball || (capacity > 0 && !plain && !full))
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    c2d_status st = c2d_check_vec(ball->position);
    if (st == C2D_OK)
        st = c2d_check_vec(ball->velocity);
    if (st == C2D_OK)
        st = c2d_check_number(ball->radius);
    if (st == C2D_OK)
        st = c2d_check_number(dt);
    if (st == C2D_OK)
        st = check_options(options, set->n_public);
    if (st != C2D_OK)
        return st;
    if (!(ball->radius > 0))
        return C2D_ERR_SIZE;
    if (dt < 0 || vec_magnitude(ball->velocity) * dt > C2D_MAX_COORDINATE)
        return C2D_ERR_RANGE;
    static const c2d_vec2 centre = {0.0, 0.0};
    mover a;
    a.heap = NULL;
    a.v = &centre;
    a.nrm = NULL;
    a.n = 1;
    a.r = ball->radius;
    a.box.min = v2(-ball->radius, -ball->radius);
    a.box.max = v2(ball->radius, ball->radius);
    engine e;
    st = c2d_engine_init(&e, set, &a, options, C2D_RESPONSE_BOUNCE,
                         vec_magnitude(ball->position) + vec_magnitude(ball->velocity) * dt + ball->radius);
    if (st != C2D_OK)
        return st;
    e.plain = plain;
    e.full = full;
    e.capacity = capacity;
    e.list = list;
    double restitution = options ? options->restitution : 1.0, friction = options ? options->friction : 0.0;
    c2d_vec2 p = ball->position, vel = ball->velocity;
    c2d_move_result res;
    st = run(&e, &p, &vel, dt, restitution, friction, &res);
    c2d_engine_free(&e);
    mover_free(&a);
    if (st == C2D_OK && list)
        st = list_done(list, report, report_ctx);
    if (st != C2D_OK)
        return st;
    ball->position = p;
    ball->velocity = vel;
    if (result)
        *result = res;
    return C2D_OK;
}

c2d_status c2d_static_set_step_ball(const c2d_static_set *set, c2d_ball *ball, double dt,
                                    const c2d_move_options *options, c2d_move_result *result,
                                    c2d_sweep_contact *contacts, int capacity)
{
    return set_step_ball(set, ball, dt, options, result, contacts, NULL, capacity, NULL, NULL, NULL);
}

c2d_status c2d_static_set_step_ball_records(const c2d_static_set *set, c2d_ball *ball, double dt,
                                            const c2d_move_options *options, c2d_move_result *result,
                                            c2d_contact_record *records, int capacity)
{
    return set_step_ball(set, ball, dt, options, result, NULL, records, capacity, NULL, NULL, NULL);
}

c2d_status c2d_static_set_move_list(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                                    const c2d_move_options *options, c2d_move_result *result, c2d_record_list *list)
{
    return set_move(set, mover_shape, displacement, options, result, NULL, NULL, 0, list, NULL, NULL);
}

c2d_status c2d_static_set_step_ball_list(const c2d_static_set *set, c2d_ball *ball, double dt,
                                         const c2d_move_options *options, c2d_move_result *result,
                                         c2d_record_list *list)
{
    return set_step_ball(set, ball, dt, options, result, NULL, NULL, 0, list, NULL, NULL);
}

c2d_status c2d_static_set_move_report(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                                      const c2d_move_options *options, c2d_move_result *result,
                                      c2d_records_fn report, void *report_ctx)
{
    if (!report)
        return C2D_ERR_NULL;
    c2d_contact_record stack[16];
    c2d_record_list list;
    c2d_record_list_init(&list, stack, 16);
    c2d_status st = set_move(set, mover_shape, displacement, options, result, NULL, NULL, 0, &list, report, report_ctx);
    c2d_record_list_free(&list);
    return st;
}

c2d_status c2d_static_set_step_ball_report(const c2d_static_set *set, c2d_ball *ball, double dt,
                                           const c2d_move_options *options, c2d_move_result *result,
                                           c2d_records_fn report, void *report_ctx)
{
    if (!report)
        return C2D_ERR_NULL;
    c2d_contact_record stack[16];
    c2d_record_list list;
    c2d_record_list_init(&list, stack, 16);
    c2d_status st = set_step_ball(set, ball, dt, options, result, NULL, NULL, 0, &list, report, report_ctx);
    c2d_record_list_free(&list);
    return st;
}
