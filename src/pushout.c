/* pushout.c - the shortest way out of the union of a static set's solid shapes for a mover that
 * starts inside it (seed 004's problem 2, without random nudges): the exits each shape's surface
 * offers, the corners where two shapes' surfaces cross, which of them are free and reached without
 * passing through another shape, searched outwards from the mover; and the overlap test that says
 * whether a push is needed at all. Layer 4, sets: calls engine.c. */
#include "engine.h"

#include <stdlib.h>

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
    if (va.x != vb.x || va.y != vb.y || c2d_static_set_spin(e->set, i) != c2d_static_set_spin(e->set, j))
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

void c2d_deep_hull(deep_ctx *c, int i, const c2d_rhull *h, c2d_vec2 shift, double tol)
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
    c2d_deep_hull(c, i, &h, shift, member_tol(c->e, i));
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

int c2d_push_round(const engine *e, c2d_vec2 p, c2d_vec2 *out_p, int *out_index, c2d_rhull_hit *out_f,
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
