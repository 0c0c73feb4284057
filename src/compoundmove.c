/* compoundmove.c - whether a move of one compound leaves it clear of another, and how far along a
 * direction it must go to be: every part pair at most touching, and with a chain, no crossing that no
 * part pair sees (one chain passing through another at a joint or along a stretch they share, a
 * segment lying along a joint inside a concave polygon), sweeps of the parts back from far out, and the
 * places along the way where a crossing can begin or end. The contact of a pair of compounds tries its
 * candidate moves with these. Layer 5, compound shapes. */
#include "compound.h"

#include <stdlib.h>
#include <string.h>

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* How far along unit u compound b must move for none of its parts to overlap compound a: each part is
 * put far out along u and swept back to where it stands; the first touch of each is where it comes
 * clear, and the farthest of those clears them all (moving farther keeps every part clear: each part
 * met nothing on its way in before its touch). moved holds a copy of each of b's parts, placed here,
 * as caught_after places them. */
c2d_status c2d_compound_clear_along(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, c2d_vec2 u,
                                    double *out)
{
    const c2d_compound *cb = c2d_compound_of(b);
    double far = v2_len_safe(v2_sub(b->pos, a->pos)) + a->reach + b->reach;
    far = far * (1 + 1e-6) + 1e-300;
    double s = 0;
    for (int k = 0; k < cb->n; k++) {
        const c2d_shape *q = cb->part[k];
        c2d_shape_place(moved[k], v2_mad(q->pos, far, u), q->angle, q->c, q->s);
        c2d_toi toi;
        c2d_status st = c2d_compound_convex_sweep(a, v2(0, 0), moved[k], v2_scale(u, -far), &toi);
        if (st != C2D_OK)
            return st;
        double sk = toi.state == C2D_TOI_HIT ? far * (1 - toi.t) : toi.state == C2D_TOI_OVERLAP ? far : 0;
        s = sk > s ? sk : s;
    }
    *out = s;
    return C2D_OK;
}

/* Whether the boxes of two placed shapes come within tol of each other. */
static int boxes_within(const c2d_shape *p, const c2d_shape *q, double tol)
{
    c2d_aabb x = c2d_shape_aabb(p), y = c2d_shape_aabb(q);
    return x.min.x - tol <= y.max.x && y.min.x - tol <= x.max.x && x.min.y - tol <= y.max.y &&
           y.min.y - tol <= x.max.y;
}

/* Whether chain c is closed (its last part meets its first). */
static int chain_closed(const c2d_compound *c)
{
    return c->n >= 3 && c2d_compound_meet(c, 0, c->n - 1) == C2D_PARTS_JOINT;
}

/* The joint at the end of chain c's part i, where it meets the next part (none at an open chain's last
 * part), with its parts placed as parts[]: the shared point in *j, and the vectors from it to the far
 * ends of the two segments (its arms) in *p (back along the chain) and *q (on along it). Each segment
 * is placed on its own, so the shared point is taken midway between the two ends nearest each other. */
static int chain_joint(const c2d_compound *c, const c2d_shape *const *parts, int i, c2d_vec2 *j, c2d_vec2 *p,
                       c2d_vec2 *q)
{
    int next = i + 1 < c->n ? i + 1 : (chain_closed(c) ? 0 : -1);
    if (next < 0)
        return 0;
    c2d_vec2 e[2] = {c2d_world_vertex(parts[i], 0), c2d_world_vertex(parts[i], 1)};
    c2d_vec2 f[2] = {c2d_world_vertex(parts[next], 0), c2d_world_vertex(parts[next], 1)};
    int bi = 1, bn = 0;
    double best = INFINITY;
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) {
            double dist = v2_len_safe(v2_sub(e[x], f[y]));
            if (dist < best) {
                best = dist;
                bi = x;
                bn = y;
            }
        }
    *j = v2_mid(e[bi], f[bn]);
    *p = v2_sub(e[1 - bi], *j);
    *q = v2_sub(f[1 - bn], *j);
    return 1;
}

/* The arms of chain c (parts placed as parts[]) at point x of its part k, back and on along the chain:
 * at an end of the part that is a joint (within tol), the joint's; inside the part, its two halves. 0
 * at an open end (one arm). The part is the one the other chain met there: where c crosses itself,
 * another part may pass through x too, and its arms are another branch. */
static int chain_arms_at(const c2d_compound *c, const c2d_shape *const *parts, int k, c2d_vec2 x, double tol,
                         c2d_vec2 *back, c2d_vec2 *on)
{
    c2d_vec2 e0 = c2d_world_vertex(parts[k], 0), e1 = c2d_world_vertex(parts[k], 1), j;
    if (v2_len_safe(v2_sub(e0, x)) <= tol) {
        int prev = k > 0 ? k - 1 : (chain_closed(c) ? c->n - 1 : -1);
        return prev >= 0 && chain_joint(c, parts, prev, &j, back, on);
    }
    if (v2_len_safe(v2_sub(e1, x)) <= tol)
        return chain_joint(c, parts, k, &j, back, on);
    *back = v2_sub(e0, x);
    *on = v2_sub(e1, x);
    return 1;
}

/* Which side of chain c an arm q from a point of it leaves on, given c's arms there back and on along
 * it: 1 on its left (the angle turned counter-clockwise from the arm on to the arm back), -1 on its
 * right, 0 along either arm (q's far end within tol of the arm's line, on its side of the point). */
static int arm_side(c2d_vec2 back, c2d_vec2 on, c2d_vec2 q, double tol)
{
    c2d_vec2 u1 = v2_normalize_or(on, v2(1, 0)), u2 = v2_normalize_or(back, v2(1, 0));
    double c1 = v2_cross(u1, q), c2 = v2_cross(u2, q);
    if ((fabs(c1) <= tol && v2_dot(u1, q) > 0) || (fabs(c2) <= tol && v2_dot(u2, q) > 0))
        return 0;
    double turn = v2_cross(u1, u2);
    int in;
    if (turn > 0)
        in = c1 > 0 && c2 < 0; /* the angle from on to back is less than a half-turn */
    else if (turn < 0)
        in = !(c1 < 0 && c2 > 0); /* the other one is */
    else
        in = v2_dot(u1, u2) < 0 && c1 > 0; /* straight: left of on; folded back: one side only */
    return in ? 1 : -1;
}

/* A stretch of chain b's path lying on chain a, from s0 to s1 along b (part k of b covers [k, k + 1],
 * from its vertex 0 to its vertex 1), a point when s0 == s1; on a's parts p0 at s0 and p1 at s1. */
typedef struct stretch {
    double s0, s1;
    int p0, p1;
} stretch;

/* By start, the longest first (where b runs along a part of a from a point another part of a passes
 * through too, the stretch starts on the part it runs along); then by part. */
static int compare_stretch(const void *x, const void *y)
{
    const stretch *a = (const stretch *)x, *b = (const stretch *)y;
    if (a->s0 != b->s0)
        return a->s0 < b->s0 ? -1 : 1;
    if (a->s1 != b->s1)
        return a->s1 > b->s1 ? -1 : 1;
    return (a->p0 > b->p0) - (a->p0 < b->p0);
}

/* The point of chain b's path at s. */
static c2d_vec2 path_at(const c2d_shape *const *parts, int n, double s)
{
    int k = (int)floor(s);
    k = k < 0 ? 0 : (k >= n ? n - 1 : k);
    c2d_vec2 e0 = c2d_world_vertex(parts[k], 0), e1 = c2d_world_vertex(parts[k], 1);
    return v2_mad(e0, s - k, v2_sub(e1, e0));
}

/* The arm of chain b's path leaving the point at s backwards (dir -1) or onwards (dir 1), within tol
 * of a vertex: to the vertex before or after it (none past an open chain's end: returns 0); else along
 * the part it is on. */
static int path_arm(const c2d_compound *cb, const c2d_shape *const *parts, double s, int dir, double tol,
                    c2d_vec2 *out)
{
    int n = cb->n, closed = chain_closed(cb);
    int k = (int)floor(s);
    k = k < 0 ? 0 : (k >= n ? n - 1 : k);
    c2d_vec2 x = path_at(parts, n, s), e0 = c2d_world_vertex(parts[k], 0), e1 = c2d_world_vertex(parts[k], 1);
    if (dir < 0) {
        if (v2_len_safe(v2_sub(x, e0)) > tol) {
            *out = v2_sub(e0, x);
            return 1;
        }
        if (k == 0 && !closed)
            return 0;
        *out = v2_sub(c2d_world_vertex(parts[k == 0 ? n - 1 : k - 1], 0), x);
        return 1;
    }
    if (v2_len_safe(v2_sub(x, e1)) > tol) {
        *out = v2_sub(e1, x);
        return 1;
    }
    if (k == n - 1 && !closed)
        return 0;
    *out = v2_sub(c2d_world_vertex(parts[k == n - 1 ? 0 : k + 1], 1), x);
    return 1;
}

/* Whether chain b (parts placed as bparts) passes from one side of chain a to the other where they
 * meet without crossing part against part: through a joint of a, at a joint of its own on a, or along
 * a stretch it shares with a. Each segment there only touches the other chain, so no pair of parts
 * sees that, and the union's push-out sees it only where rounding leaves the point clear of every
 * segment but one. b's path is followed (only the parts marked in near_b, within tol of a) and cut
 * into the stretches where it lies on a (points where it meets a, runs along it); b crosses a at
 * one where it comes in from one side of a and leaves on the other: the arm of b before the stretch
 * and the arm after it, each against a's arms where it leaves (its joint's, or its segment's two
 * halves). An end of b on a, or an end of a, has no sides: b touches there. */
static c2d_status chains_cross(const c2d_compound *ca, const c2d_shape *const *aparts, const c2d_compound *cb,
                               const c2d_shape *const *bparts, const int *near_b, double tol, int *out)
{
    *out = 0;
    int cap = 16, m = 0;
    stretch stack[16], *st = stack;
    for (int k = 0; k < cb->n; k++) {
        if (!near_b[k])
            continue;
        c2d_vec2 e0 = c2d_world_vertex(bparts[k], 0), e1 = c2d_world_vertex(bparts[k], 1), d = v2_sub(e1, e0);
        double len = v2_len_safe(d);
        if (!(len > 0))
            continue;
        c2d_vec2 u = v2_scale(d, 1 / len);
        for (int i = 0; i < ca->n; i++) {
            c2d_vec2 p0 = c2d_world_vertex(aparts[i], 0), p1 = c2d_world_vertex(aparts[i], 1);
            double h0 = v2_cross(u, v2_sub(p0, e0)), h1 = v2_cross(u, v2_sub(p1, e0));
            double t[5];
            int nt = 0, run = 0;
            if (fabs(h0) <= tol && fabs(h1) <= tol) {
                /* Along b's line: the overlap of the two, if any. */
                double a0 = v2_dot(v2_sub(p0, e0), u) / len, a1 = v2_dot(v2_sub(p1, e0), u) / len;
                double lo = fmax(fmin(a0, a1), 0), hi = fmin(fmax(a0, a1), 1), slack = tol / len;
                if (lo <= hi + slack) {
                    t[nt++] = fmin(lo, hi);
                    t[nt++] = fmax(lo, hi);
                    run = 1;
                }
            } else {
                /* Points: an end of either on the other, or a crossing. */
                for (int w = 0; w < 2; w++) {
                    c2d_vec2 pw = w ? p1 : p0;
                    if (v2_len_safe(v2_sub(c2d_segment_closest(e0, e1, pw), pw)) <= tol)
                        t[nt++] = fmin(fmax(v2_dot(v2_sub(pw, e0), u) / len, 0), 1);
                    c2d_vec2 ew = w ? e1 : e0;
                    if (v2_len_safe(v2_sub(c2d_segment_closest(p0, p1, ew), ew)) <= tol)
                        t[nt++] = w;
                }
                if ((h0 > tol && h1 < -tol) || (h0 < -tol && h1 > tol)) {
                    double f = h0 / (h0 - h1);
                    c2d_vec2 x = v2_mad(p0, f, v2_sub(p1, p0));
                    double tx = v2_dot(v2_sub(x, e0), u) / len;
                    if (tx >= 0 && tx <= 1)
                        t[nt++] = tx;
                }
            }
            for (int r = 0; r < nt; r += run ? 2 : 1) {
                if (m == cap) {
                    stretch *grown = (stretch *)malloc(2 * (size_t)cap * sizeof *grown);
                    if (!grown) {
                        if (st != stack)
                            free(st);
                        return C2D_ERR_NO_MEMORY;
                    }
                    memcpy(grown, st, (size_t)m * sizeof *st);
                    if (st != stack)
                        free(st);
                    st = grown;
                    cap *= 2;
                }
                st[m].s0 = k + t[r];
                st[m].s1 = k + t[run ? r + 1 : r];
                st[m].p0 = st[m].p1 = i;
                m++;
            }
        }
    }
    /* Each point where b meets a part of a, against that part's arms there: where a passes through
     * one point more than once (a joint of a on another of its segments, a chain folded back on
     * itself), b may cross one branch and only touch another, and the stretch below sees only the
     * first. Inside a stretch b runs along a, and an arm along a is on no side. */
    for (int r = 0; r < m && !*out; r++) {
        if (st[r].s1 != st[r].s0)
            continue;
        c2d_vec2 qb, qo, back, on, x = path_at(bparts, cb->n, st[r].s0);
        if (path_arm(cb, bparts, st[r].s0, -1, tol, &qb) && path_arm(cb, bparts, st[r].s0, 1, tol, &qo) &&
            chain_arms_at(ca, aparts, st[r].p0, x, tol, &back, &on)) {
            int side0 = arm_side(back, on, qb, tol), side1 = arm_side(back, on, qo, tol);
            *out = side0 != 0 && side1 != 0 && side0 != side1;
        }
    }
    if (m > 1)
        qsort(st, (size_t)m, sizeof *st, compare_stretch);
    /* Stretches that meet (along b's path: to tol in the world across a part or two, as rounding may
     * leave a gap at a joint) are one; on a closed chain the last may go on into the first. */
    int merged = 0;
    for (int r = 0; r < m; r++) {
        if (merged > 0 &&
            (st[r].s0 <= st[merged - 1].s1 ||
             (st[r].s0 - st[merged - 1].s1 < 1 &&
              v2_len_safe(v2_sub(path_at(bparts, cb->n, st[r].s0), path_at(bparts, cb->n, st[merged - 1].s1))) <=
                  2 * tol))) {
            if (st[r].s1 > st[merged - 1].s1) {
                st[merged - 1].s1 = st[r].s1;
                st[merged - 1].p1 = st[r].p1;
            }
            continue;
        }
        st[merged++] = st[r];
    }
    int closed = chain_closed(cb);
    if (*out)
        merged = 0; /* crossing already */
    if (closed && merged > 1 && st[0].s0 <= 0 && st[merged - 1].s1 >= cb->n) {
        st[0].s0 = st[merged - 1].s0 - cb->n; /* the last goes on into the first */
        st[0].p0 = st[merged - 1].p0;
        merged--;
    }
    for (int r = 0; r < merged && !*out; r++) {
        if (closed && st[r].s0 <= st[r].s1 - cb->n)
            continue; /* all of b lies on a */
        double s0 = st[r].s0 < 0 ? st[r].s0 + cb->n : st[r].s0;
        c2d_vec2 qb, qo, x0 = path_at(bparts, cb->n, s0), x1 = path_at(bparts, cb->n, st[r].s1);
        c2d_vec2 back0, on0, back1, on1;
        if (!path_arm(cb, bparts, s0, -1, tol, &qb) || !path_arm(cb, bparts, st[r].s1, 1, tol, &qo) ||
            !chain_arms_at(ca, aparts, st[r].p0, x0, tol, &back0, &on0) ||
            !chain_arms_at(ca, aparts, st[r].p1, x1, tol, &back1, &on1))
            continue;
        int side0 = arm_side(back0, on0, qb, tol), side1 = arm_side(back1, on1, qo, tol);
        *out = side0 != 0 && side1 != 0 && side0 != side1;
    }
    if (st != stack)
        free(st);
    return C2D_OK;
}

/* Whether a chain's segment that touches a concave polygon lies inside it deeper than tol, though it
 * only touches each part: along a joint between two parts. The union's push-out (the set of the
 * parts, with their joints as seams) sees that; no part pair does. */
static c2d_status inside_union(const c2d_shape *whole, const c2d_shape *seg, double tol, int *out)
{
    c2d_vec2 d;
    c2d_status st = c2d_compound_union_push(whole, seg, &d);
    *out = st == C2D_OK && v2_len_safe(d) > tol;
    return st;
}

/* Whether compound b moved by d overlaps compound a deeper than tol: moved holds a copy of each of b's
 * parts, placed here; near (one per part of a, then one per part of b) is scratch. For parts with
 * area, every part pair at most touching is the union at most touching (a move that clears the union
 * clears each part, which is at least each pair's depth; and parts with area that only touch share no
 * inside). A chain's segments have none, and may touch every part of the other shape and still be in
 * it: passing from one side of the other chain to the other through a joint of either or along a
 * stretch they share (chains_cross), or along a joint inside a concave polygon (inside_union asks the
 * other shape's union of each segment that touches it). Touching is taken to tol, by distance:
 * rounding may put the point where two parts meet a hair off either. */
c2d_status c2d_compound_caught_after(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, int *near,
                                     c2d_vec2 d, double tol, int *out)
{
    const c2d_compound *ca = c2d_compound_of(a), *cb = c2d_compound_of(b);
    int chain_a = a->type == C2D_SHAPE_CHAIN, chain_b = b->type == C2D_SHAPE_CHAIN;
    int *near_a = near, *near_b = near + ca->n;
    c2d_status st = C2D_OK;
    *out = 0;
    for (int i = 0; i < ca->n + cb->n; i++)
        near[i] = 0;
    for (int j = 0; j < cb->n && !*out; j++) {
        const c2d_shape *q = cb->part[j];
        c2d_shape_place(moved[j], v2_add(q->pos, d), q->angle, q->c, q->s);
        for (int i = 0; i < ca->n && !*out; i++) {
            c2d_contact c;
            if ((st = c2d_convex_collide(ca->part[i], moved[j], &c)) != C2D_OK)
                return st;
            *out = c.count > 0 && c.depth > tol;
            int close = c.count > 0;
            if (!close && (chain_a || chain_b) && boxes_within(ca->part[i], moved[j], tol)) {
                c2d_distance_result r;
                if ((st = c2d_convex_distance(ca->part[i], moved[j], &r)) != C2D_OK)
                    return st;
                close = r.distance <= tol;
            }
            near_a[i] |= close;
            near_b[j] |= close;
        }
    }
    if (*out || !(chain_a || chain_b))
        return C2D_OK;
    if (chain_a && chain_b &&
        ((st = chains_cross(ca, (const c2d_shape *const *)ca->part, cb, (const c2d_shape *const *)moved, near_b, tol,
                            out)) != C2D_OK ||
         *out))
        return st;
    /* Each chain segment touching the other shape, against its union: the union's push-out is what the
     * pair's contact asks of each part (compound_convex_contact), so a place it finds a segment deep
     * in would not be touching by c2d_distance either (at coordinates far larger than the parts, a
     * crossing shallower than tol by part pairs can be one the segment leaves only far away). */
    for (int j = 0; chain_b && j < cb->n && !*out && st == C2D_OK; j++)
        if (near_b[j])
            st = inside_union(a, moved[j], tol, out);
    for (int i = 0; chain_a && i < ca->n && !*out && st == C2D_OK; i++) {
        if (!near_a[i])
            continue;
        /* a's segment against b's union where b stands after the move: the segment moved back by d
         * against b where it stands. */
        const c2d_shape *p = ca->part[i];
        c2d_shape *back;
        if ((st = c2d_shape_clone(p, &back)) != C2D_OK)
            break;
        c2d_shape_place(back, v2_sub(p->pos, d), p->angle, p->c, p->s);
        st = inside_union(b, back, tol, out);
        c2d_shape_destroy(back);
    }
    return st;
}

/* The distances s > from at which b moved by s u (unit) has a vertex of a part of one shape on an edge
 * of a part of the other, where whether a chain crosses the other shape can change: each vertex cast
 * along the motion (a's backwards) against the other's edges. Ascending, in a new array (NULL when
 * there are none or memory ran out: *count says which, -1 for no memory). */
static double *events_along(const c2d_shape *a, const c2d_shape *b, c2d_vec2 u, double from, int *count)
{
    const c2d_compound *ca = c2d_compound_of(a), *cb = c2d_compound_of(b);
    size_t cap = 0;
    for (int i = 0; i < ca->n; i++)
        for (int j = 0; j < cb->n; j++)
            cap += (size_t)ca->part[i]->count * (size_t)cb->part[j]->count * 2;
    double *ev = cap > 0 ? (double *)malloc(cap * sizeof *ev) : NULL;
    *count = 0;
    if (!ev) {
        *count = cap > 0 ? -1 : 0;
        return NULL;
    }
    for (int w = 0; w < 2; w++) {
        /* w = 0: b's vertices moving along u onto a's edges; w = 1: a's along -u onto b's. */
        const c2d_compound *cv = w ? ca : cb, *ce = w ? cb : ca;
        c2d_vec2 dir = w ? v2_neg(u) : u;
        for (int i = 0; i < cv->n; i++) {
            const c2d_shape *pv = cv->part[i];
            for (int k = 0; k < pv->count; k++) {
                c2d_vec2 x = c2d_world_vertex(pv, k);
                for (int j = 0; j < ce->n; j++) {
                    const c2d_shape *pe = ce->part[j];
                    int edges = pe->count >= 3 ? pe->count : 1;
                    for (int e = 0; e < edges; e++) {
                        c2d_vec2 p = c2d_world_vertex(pe, e), q = c2d_world_vertex(pe, (e + 1) % pe->count);
                        c2d_vec2 d = v2_sub(q, p);
                        double den = v2_cross(dir, d);
                        if (den == 0)
                            continue;
                        double t = v2_cross(v2_sub(p, x), d) / den, f = v2_cross(v2_sub(p, x), dir) / den;
                        if (t > from && f >= 0 && f <= 1 && isfinite(t))
                            ev[(*count)++] = t;
                    }
                }
            }
        }
    }
    qsort(ev, (size_t)*count, sizeof *ev, compare_double);
    return ev;
}

/* For pairs with a chain, whose parts' sweeps and touches do not see a segment that slides along its
 * own line through a joint, or into a joint inside a concave polygon (clear_along stops there): the
 * least distance s >= from along unit u at which b moved by s u is not caught (caught_after), trying
 * from itself and then every event beyond it in order. *out = -1 when none is. */
c2d_status c2d_compound_verified_along(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, int *near,
                                       c2d_vec2 u, double from, double tol, double *out)
{
    int caught = 0;
    c2d_status st = c2d_compound_caught_after(a, b, moved, near, v2_scale(u, from), tol, &caught);
    *out = from;
    if (st != C2D_OK || !caught)
        return st;
    int count = 0;
    double *ev = events_along(a, b, u, from, &count);
    if (count < 0)
        return C2D_ERR_NO_MEMORY;
    *out = -1;
    for (int k = 0; k < count && st == C2D_OK && *out < 0; k++) {
        if (k > 0 && ev[k] == ev[k - 1])
            continue;
        st = c2d_compound_caught_after(a, b, moved, near, v2_scale(u, ev[k]), tol, &caught);
        if (st == C2D_OK && !caught)
            *out = ev[k];
    }
    free(ev);
    return st;
}

/* For pairs with a chain: b moved by len u (unit) overlaps a in nothing, but a chain has no inside, and
 * there b may stand inside a closed chain's loop, apart from it (clear_along's places are outside it,
 * beyond every part's first touch). The place where b, moved back from there along -u, first touches
 * a, in *out, when nothing is caught there; else len. */
c2d_status c2d_compound_back_to_touch(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, int *near,
                                      c2d_vec2 u, double len, double tol, double *out)
{
    const c2d_compound *cb = c2d_compound_of(b);
    double first = 1;
    *out = len;
    for (int k = 0; k < cb->n; k++) {
        const c2d_shape *q = cb->part[k];
        c2d_shape_place(moved[k], v2_mad(q->pos, len, u), q->angle, q->c, q->s);
        c2d_toi toi;
        c2d_status st = c2d_compound_convex_sweep(a, v2(0, 0), moved[k], v2_scale(u, -len), &toi);
        if (st != C2D_OK)
            return st;
        if (toi.state != C2D_TOI_NONE && toi.t < first)
            first = toi.state == C2D_TOI_HIT ? toi.t : 0;
    }
    if (!(first > 0) || first >= 1)
        return C2D_OK; /* touching there already (or nothing met on the way back: as it was) */
    double s = len * (1 - first);
    int caught = 0;
    c2d_status st = c2d_compound_caught_after(a, b, moved, near, v2_scale(u, s), tol, &caught);
    if (st == C2D_OK && !caught)
        *out = s;
    return st;
}
