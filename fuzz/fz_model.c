/* fz_model.c - what the harness knows of chains and concave polygons: the rings each was made from
 * (fz_model), placed where the shape stands now, their parts and edges as a static set counts them,
 * and the checks of a compound's point, ray and pair queries against those rings rather than against
 * the library's own answers. */
#include "fz.h"

/* ---- compound shapes: what the harness knows of them -------------------------------------------- */

/* The model's rings where the shape stands now: pos + R(angle) (p - pos0), with the C library's sine
 * and cosine (faithful, like the library's own: a rounding apart at most). */
void fz_model_place(const fz_model *m, const c2d_shape *s, fz_rings w)
{
    c2d_vec2 pos;
    double a = 0;
    c2d_shape_get_position(s, &pos);
    c2d_shape_get_angle(s, &a);
    double c = a == 0 ? 1 : cos(a), sn = a == 0 ? 0 : sin(a);
    for (int r = 0; r < m->rings; r++)
        for (int i = 0; i < m->cnt[r]; i++) {
            c2d_vec2 d = fz_v(m->p[r][i].x - m->pos0.x, m->p[r][i].y - m->pos0.y);
            w[r][i] = fz_v(pos.x + (c * d.x - sn * d.y), pos.y + (sn * d.x + c * d.y));
        }
}

/* Whether edge i of ring r is an edge of the model (a chain that is open has no closing edge). */
static int fz_model_edges(const fz_model *m, int r)
{
    int k = m->cnt[r];
    return m->kind == C2D_SHAPE_CHAIN && !m->closed ? k - 1 : k;
}

/* Signed distance from q to the placed rings w: the distance to the nearest edge, negative inside the
 * region (even-odd against every ring) for a concave polygon; a chain has no inside. *near gets the
 * nearest point. */
static double fz_model_sd(const fz_model *m, fz_rings w, c2d_vec2 q, c2d_vec2 *near)
{
    double best = INFINITY;
    c2d_vec2 bq = q;
    int odd = 0;
    for (int r = 0; r < m->rings; r++) {
        int k = m->cnt[r];
        for (int i = 0; i < fz_model_edges(m, r); i++) {
            c2d_vec2 c = fz_seg_closest(w[r][i], w[r][(i + 1) % k], q);
            double d = hypot(q.x - c.x, q.y - c.y);
            if (d < best) {
                best = d;
                bq = c;
            }
        }
        if (m->kind == C2D_SHAPE_CONCAVE)
            odd ^= fz_ring_parity(w[r], k, q);
    }
    if (near)
        *near = bq;
    return odd ? -best : best;
}

/* The largest coordinate magnitude of the placed rings. */
static double fz_model_mag(const fz_model *m, fz_rings w)
{
    double s = 0;
    for (int r = 0; r < m->rings; r++)
        for (int i = 0; i < m->cnt[r]; i++)
            s = fmax(s, fmax(fabs(w[r][i].x), fabs(w[r][i].y)));
    return s;
}

/* The placed vertices of part k of s (count in *n, 0 on failure). */
void fz_part(const c2d_shape *s, int k, c2d_vec2 *v, int cap, int *n)
{
    *n = 0;
    if (c2d_shape_get_part_vertices(s, k, v, cap, n) != C2D_OK)
        *n = 0;
}

int fz_part_count(const c2d_shape *s)
{
    int n = 0;
    if (!s || c2d_shape_get_part_count(s, &n) != C2D_OK)
        return 0;
    return n;
}

/* The edges a static set counts for s: the vertex count of a convex kind with at least 2 (a circle has
 * none), and for a chain or concave polygon those of its parts, one part after the other. */
int fz_edge_count(const c2d_shape *s)
{
    if (!fz_is_compound(s)) {
        int ne = 0;
        c2d_shape_get_vertices(s, NULL, 0, &ne);
        return ne < 2 ? 0 : ne;
    }
    int total = 0;
    for (int k = 0; k < fz_part_count(s); k++) {
        int n = 0;
        c2d_shape_get_part_vertices(s, k, NULL, 0, &n);
        total += n >= 2 ? n : 0;
    }
    return total;
}

/* The unit right-hand normal of a chain's part k (a segment a-b, right of b - a), scaled first so that
 * tiny and huge segments have one; zero when its ends coincide. */
c2d_vec2 fz_chain_right(const c2d_shape *s, int k)
{
    c2d_vec2 v[2];
    int n = 0;
    fz_part(s, k, v, 2, &n);
    if (n != 2)
        return fz_v(0, 0);
    return fz_v(v[1].y - v[0].y, -(v[1].x - v[0].x));
}

/* The signed distance from s to the nearest part of a chain or concave polygon (each part a shape of
 * its own, shifted by `shift`): the one smallest in magnitude. A one-way compound's parts block one by
 * one, so a mover may touch one part while it overlaps another it passes through. NAN when no part can
 * be built. */
double fz_part_distance(const c2d_shape *s, const c2d_shape *member, c2d_vec2 shift)
{
    double best = NAN;
    for (int k = 0; k < fz_part_count(member); k++) {
        c2d_vec2 v[FZ_MAX_VERTS];
        int n = 0;
        fz_part(member, k, v, FZ_MAX_VERTS, &n);
        for (int i = 0; i < n; i++)
            v[i] = fz_v(v[i].x + shift.x, v[i].y + shift.y);
        c2d_shape *part = NULL;
        c2d_distance_result r;
        if ((n == 2 ? c2d_segment_new(v[0], v[1], &part) : c2d_polygon_new(v, n, &part)) != C2D_OK)
            continue;
        if (c2d_distance(s, part, &r) == C2D_OK && (isnan(best) || fabs(r.distance) < fabs(best)))
            best = r.distance;
        c2d_shape_destroy(part);
    }
    return best;
}

/* The smallest width of n points taken in order as a convex outline: across each edge's direction,
 * the spread of the points (0 when no edge has a length). */
double fz_points_width(const c2d_vec2 *v, int n)
{
    double w = INFINITY;
    for (int i = 0; i < n; i++) {
        c2d_vec2 e = fz_sub(v[(i + 1) % n], v[i]);
        double l = fz_len(e);
        if (!(l > 0) || !isfinite(l))
            continue;
        double lo = INFINITY, hi = -INFINITY;
        for (int j = 0; j < n; j++) {
            double t = (-(v[j].x - v[i].x) * e.y + (v[j].y - v[i].y) * e.x) / l;
            lo = fmin(lo, t);
            hi = fmax(hi, t);
        }
        w = fmin(w, hi - lo);
    }
    return isfinite(w) ? w : 0;
}

/* The smallest width of a shape: across each of its edges' directions, the spread of its vertices,
 * plus twice its radius (0 for a segment or chain, twice the radius for a circle). */
double fz_min_width(const c2d_shape *s)
{
    c2d_vec2 v[FZ_MAX_VERTS];
    int n = 0;
    double r = 0;
    c2d_shape_get_radius(s, &r);
    if (fz_is_compound(s) && c2d_shape_get_type(s) == C2D_SHAPE_CHAIN)
        return 0;
    if (c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &n) != C2D_OK || n < 2)
        return 2 * r;
    return fz_points_width(v, n) + 2 * r;
}

/* Whether a contact with a one-sided chain (every segment blocking from its right) is met from a
 * side that blocks: of the chain's segments (shifted by `shift`, where a moving member stood then)
 * within tol of the contact point, one has the normal (towards the mover) on its right. When no
 * segment is that close (or only segments collapsed to a point) nothing is claimed. */
int fz_chain_side_ok(const c2d_shape *s, c2d_vec2 shift, c2d_vec2 point, c2d_vec2 normal, double tol)
{
    int near = 0;
    for (int k = 0; k < fz_part_count(s); k++) {
        c2d_vec2 v[2];
        int n = 0;
        fz_part(s, k, v, 2, &n);
        if (n != 2)
            continue;
        c2d_vec2 a = fz_v(v[0].x + shift.x, v[0].y + shift.y), b = fz_v(v[1].x + shift.x, v[1].y + shift.y);
        c2d_vec2 c = fz_seg_closest(a, b, point), r = fz_chain_right(s, k);
        /* (A segment whose placed ends coincide has no side to judge.) */
        if (!(hypot(point.x - c.x, point.y - c.y) <= tol) || (r.x == 0 && r.y == 0))
            continue;
        near = 1;
        if (normal.x * r.x + normal.y * r.y > 0)
            return 1;
    }
    return !near;
}

/* ---- chains and concave polygons: queries against the rings they were made from ---------------- */

/* The scene's size for a model check: the shape, its placed rings and the points involved. */
static double fz_model_scale(const fz_model *m, fz_rings w, const c2d_shape *s, c2d_vec2 p)
{
    return fmax(fmax(fz_shape_scale(s), fz_model_mag(m, w)), fz_vec_mag(p));
}

/* contains_point and closest_point of slot k's compound at p, against its rings as placed now: a
 * point farther than the tolerance from every ring edge is inside exactly when the even-odd count
 * says so (a chain contains no such point); the signed distance is the brute-force distance to the
 * nearest ring edge (negative inside); the nearest point lies on a ring edge. */
void fz_check_model_point(const fz_state *st, int k, c2d_vec2 p)
{
    const fz_model *m = &st->model[k];
    const c2d_shape *s = st->slot[k];
    if (!m->kind || !s || !fz_ok_vec(p) || (m->narrow && !fz_strict_misc))
        return;
    fz_rings w;
    fz_model_place(m, s, w);
    c2d_vec2 near;
    double sdm = fz_model_sd(m, w, p, &near), tol = FZ_REL_TOL * fz_model_scale(m, w, s, p);
    int in = -1;
    c2d_vec2 q = fz_v(0, 0);
    double sd = NAN;
    FZ_CHECK(c2d_contains_point(s, p, &in) == C2D_OK && c2d_closest_point(s, p, &q, &sd) == C2D_OK,
             "point query on a compound failed");
    if (fabs(sdm) > tol)
        FZ_CHECK(in == (sdm < 0), "(%.17g, %.17g) is %.17g from the rings (even-odd: %s) but contains says %d", p.x,
                 p.y, sdm, sdm < 0 ? "inside" : "outside", in);
    FZ_CHECK(fabs(sd - sdm) <= tol,
             "closest_point from (%.17g, %.17g): signed distance %.17g, the rings' %.17g (nearest (%.17g, %.17g), tol %g)",
             p.x, p.y, sd, sdm, near.x, near.y, tol);
    if (fz_ok_vec(q)) {
        double dq = fz_model_sd(m, w, q, NULL);
        FZ_CHECK(fabs(dq) <= tol, "closest point (%.17g, %.17g) is %.17g off the rings", q.x, q.y, dq);
    }
}

/* A ray against slot k's compound, against its rings as placed now: a hit at t > 0 lies on a ring
 * edge, one at t = 0 starts inside or on the rings; a miss starts outside a concave polygon; sampled
 * points of the ray before the hit (or up to max_t, or well past the shape, for a miss) are not inside
 * the region; and the ray crosses no ring edge clearly (both its ends farther than the tolerance from
 * the ray's line, on opposite sides) before the hit, or anywhere up to max_t when it missed. A ray
 * along an edge or grazing a corner is left to rounding, as the header says. */
void fz_check_model_ray(const fz_state *st, int k, c2d_vec2 o, c2d_vec2 d, double max_t, const c2d_ray_hit *h)
{
    const fz_model *m = &st->model[k];
    const c2d_shape *s = st->slot[k];
    double len = fz_len(d);
    if (!m->kind || !s || !(len > 0) || !isfinite(len) || !fz_ok_vec(o) || (m->narrow && !fz_strict_misc))
        return;
    fz_rings w;
    fz_model_place(m, s, w);
    double end_t = h->t;
    if (!h->hit) {
        c2d_aabb b;
        c2d_shape_get_aabb(s, &b);
        double reach = 2 * (fz_len(fz_sub(b.min, o)) + fz_len(fz_sub(b.max, o))) / len;
        end_t = fmin(max_t, reach);
    }
    c2d_vec2 end = fz_v(o.x + end_t * d.x, o.y + end_t * d.y);
    if (!fz_finite_vec(end))
        return;
    double scale = fmax(fz_model_scale(m, w, s, o), fz_vec_mag(end)), tol = FZ_REL_TOL * scale;
    /* A scene wholly below DBL_MIN / DBL_EPSILON loses the bits these bounds assume (as for the aimed
     * rays). */
    if (scale < DBL_MIN / DBL_EPSILON)
        return;
    double sd0 = fz_model_sd(m, w, o, NULL);
    if (h->hit && h->t > 0) {
        double sdh = fz_model_sd(m, w, h->point, NULL);
        FZ_CHECK(fabs(sdh) <= tol, "ray hit (%.17g, %.17g) at t %.17g is %.17g off the rings (tol %g)", h->point.x,
                 h->point.y, h->t, sdh, tol);
    } else if (h->hit) {
        FZ_CHECK(sd0 <= tol, "ray hit at t = 0 but the origin is %.17g outside the rings", sd0);
        return;
    } else {
        FZ_CHECK(sd0 >= -tol, "the ray missed but its origin is %.17g inside the rings", -sd0);
    }
    for (int j = 1; j < 8 && m->kind == C2D_SHAPE_CONCAVE; j++) {
        double u = end_t * j / 8.0;
        c2d_vec2 q = fz_v(o.x + u * d.x, o.y + u * d.y);
        double sq = fz_model_sd(m, w, q, NULL);
        FZ_CHECK(sq >= -tol, "the ray is %.17g inside the rings at t %.17g, before its %s at t %.17g", -sq, u,
                 h->hit ? "hit" : "end", end_t);
    }
    c2d_vec2 u = fz_v(d.x / len, d.y / len);
    double stop = end_t * len;
    for (int r = 0; r < m->rings; r++)
        for (int i = 0; i < fz_model_edges(m, r); i++) {
            c2d_vec2 a = w[r][i], b = w[r][(i + 1) % m->cnt[r]];
            double sa = u.x * (a.y - o.y) - u.y * (a.x - o.x), sb = u.x * (b.y - o.y) - u.y * (b.x - o.x);
            if (!((sa > tol && sb < -tol) || (sa < -tol && sb > tol)))
                continue;
            double f = sa / (sa - sb);
            c2d_vec2 x = fz_v(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y));
            double along = (x.x - o.x) * u.x + (x.y - o.y) * u.y;
            double margin = tol * (2 + fz_len(fz_sub(b, a)) / (fabs(sa) + fabs(sb)));
            FZ_CHECK(!(along > margin && along < stop - margin),
                     "the ray crosses edge %d of ring %d at %.17g along it, before its %s at %.17g (margin %g)", i, r,
                     along, h->hit ? "hit" : "end", stop, margin);
        }
}

/* Slot k's compound (concave) and a point of slot j's shape: a vertex (and the position of a convex
 * kind) that is inside the rings by more than the tolerance is a witness that the two overlap. */
static void fz_check_model_witness(const fz_state *st, int k, int j)
{
    const fz_model *m = &st->model[k];
    const c2d_shape *s = st->slot[k], *t = st->slot[j];
    if (m->kind != C2D_SHAPE_CONCAVE || !s || !t || (m->narrow && !fz_strict_misc))
        return;
    fz_rings w;
    fz_model_place(m, s, w);
    c2d_vec2 v[FZ_MAX_VERTS + 1];
    int n = 0;
    if (c2d_shape_get_vertices(t, v, FZ_MAX_VERTS, &n) != C2D_OK)
        return;
    if (!fz_is_compound(t))
        c2d_shape_get_position(t, &v[n++]);
    for (int i = 0; i < n; i++) {
        double tol = FZ_REL_TOL * fmax(fz_model_scale(m, w, s, v[i]), fz_shape_scale(t));
        double sd = fz_model_sd(m, w, v[i], NULL);
        if (!(sd < -tol))
            continue;
        int o1 = -1, o2 = -1;
        c2d_overlap(s, t, &o1);
        c2d_overlap(t, s, &o2);
        FZ_CHECK(o1 == 1 && o2 == 1,
                 "point %d (%.17g, %.17g) of slot %d is %.17g inside slot %d's rings, but overlap %d/%d", i, v[i].x,
                 v[i].y, j, -sd, k, o1, o2);
        return;
    }
}

/* Slot k's concave polygon and slot j's segment: when the rings say the segment does not enter the
 * region (its ends and 15 points between them not inside by more than the tolerance, and no ring edge
 * crossing it clearly), the two have no depth: contacts both ways at most the tolerance deep, and the
 * distance no less than minus it. A segment touching a ring's corner is left out unless
 * FZ_STRICT_COMPOUND_TOUCH=1 (known bug: at a corner where parts meet it gets a depth). */
static void fz_check_model_segment(const fz_state *st, int k, int j)
{
    const fz_model *m = &st->model[k];
    const c2d_shape *s = st->slot[k], *t = st->slot[j];
    if (m->kind != C2D_SHAPE_CONCAVE || !s || !t || c2d_shape_get_type(t) != C2D_SHAPE_SEGMENT ||
        (m->narrow && !fz_strict_misc))
        return;
    c2d_vec2 v[2];
    int n = 0;
    c2d_shape_get_vertices(t, v, 2, &n);
    fz_rings w;
    fz_model_place(m, s, w);
    double tol = FZ_REL_TOL * fmax(fz_model_scale(m, w, s, v[0]), fz_vec_mag(v[1]));
    double len = fz_len(fz_sub(v[1], v[0]));
    if (!(len > 0) || !isfinite(len) || tol < DBL_MIN / DBL_EPSILON)
        return;
    for (int i = 0; i <= 16; i++) {
        c2d_vec2 q = fz_v(v[0].x + (v[1].x - v[0].x) * i / 16.0, v[0].y + (v[1].y - v[0].y) * i / 16.0);
        if (fz_model_sd(m, w, q, NULL) < -tol)
            return; /* inside: nothing claimed here */
    }
    c2d_vec2 u = fz_v((v[1].x - v[0].x) / len, (v[1].y - v[0].y) / len);
    for (int r = 0; r < m->rings; r++)
        for (int i = 0; i < m->cnt[r]; i++) {
            c2d_vec2 a = w[r][i], b = w[r][(i + 1) % m->cnt[r]];
            if (!fz_strict_touch && fz_len(fz_sub(a, fz_seg_closest(v[0], v[1], a))) <= tol)
                return; /* the segment touches a corner of the rings */
            double sa = u.x * (a.y - v[0].y) - u.y * (a.x - v[0].x), sb = u.x * (b.y - v[0].y) - u.y * (b.x - v[0].x);
            if (!((sa > tol && sb < -tol) || (sa < -tol && sb > tol)))
                continue;
            double f = sa / (sa - sb);
            c2d_vec2 x = fz_v(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y));
            double along = (x.x - v[0].x) * u.x + (x.y - v[0].y) * u.y;
            double margin = tol * (2 + fz_len(fz_sub(b, a)) / (fabs(sa) + fabs(sb)));
            if (along > margin && along < len - margin)
                return; /* a ring edge crosses it */
        }
    c2d_contact c1, c2;
    c2d_distance_result d;
    FZ_CHECK(c2d_collide(s, t, &c1) == C2D_OK && c2d_collide(t, s, &c2) == C2D_OK && c2d_distance(s, t, &d) == C2D_OK,
             "pair query failed");
    FZ_CHECK(c1.depth <= 4 * tol && c2.depth <= 4 * tol && d.distance >= -4 * tol,
             "segment (%.17g, %.17g)-(%.17g, %.17g) does not enter the rings, but contact depths %.17g/%.17g, distance "
             "%.17g",
             v[0].x, v[0].y, v[1].x, v[1].y, c1.depth, c2.depth, d.distance);
}

/* Every pair check on two slots, then the witnesses of their rings. */
void fz_check_slots(fz_state *st, int i, int j)
{
    fz_check_pair(st->slot[i], st->slot[j]);
    fz_check_model_witness(st, i, j);
    fz_check_model_witness(st, j, i);
    fz_check_model_segment(st, i, j);
    fz_check_model_segment(st, j, i);
}
