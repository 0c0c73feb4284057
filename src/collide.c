/* collide.c - overlap and contact of two convex shapes (c2d_convex_overlap, c2d_convex_collide, which
 * c2d_overlap and c2d_collide answer for them): the fast paths where geometry allows a cheaper exact
 * answer than the general SAT of sat.c, and the pair frame the general path runs in. Layer 3, kernels:
 *  - circle against circle, and circle against rectangle in the rectangle's own frame (seed 000:
 *    rotate the centre, clamp);
 *  - rectangle against rectangle with the O(1) rotation-matrix test (seed 001, box2d-lite): the
 *    extent of B along A's axes is |C| * hB with C = R_A^T R_B, and the same in B's frame;
 *  - circle against polygon in the polygon's frame;
 *  - every other pair: a bounding-circle rejection, then SAT in the frame of one of the shapes.
 * Every fast path decides touching (distance exactly 0) as overlap, like the general path. */
#include "shape.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Whether the shapes' bounding circles are apart: then so are the shapes. The circles are conservative
 * to the rounding of the placed vertices, and the margin covers the rounding of the centres' offset
 * (about an ulp of the coordinates), so no pair that touches is ever rejected here. */
static int circles_apart(const c2d_shape *a, const c2d_shape *b)
{
    double dx = b->pos.x - a->pos.x, dy = b->pos.y - a->pos.y;
    double m = a->reach + b->reach +
               4 * DBL_EPSILON * (fabs(a->pos.x) + fabs(a->pos.y) + fabs(b->pos.x) + fabs(b->pos.y));
    return dx * dx + dy * dy > m * m;
}

/* p expressed in the frame of shape s (relative to its position, unrotated). */
static c2d_vec2 to_local(const c2d_shape *s, c2d_vec2 p)
{
    return c2d_xf_local(c2d_shape_xf(s), p);
}

static c2d_vec2 rotate_out(const c2d_shape *s, c2d_vec2 v)
{
    return c2d_rotate(c2d_shape_xf(s), v);
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* Seed 000/003: the circle overlaps the rectangle iff the rectangle point nearest to the centre,
 * found by clamping in the rectangle's frame, is within the radius. */
static int circle_rect_overlap(const c2d_shape *circle, const c2d_shape *rect)
{
    double hx = rect->data[0].x, hy = rect->data[0].y;
    c2d_vec2 d = to_local(rect, circle->pos);
    double dx = d.x - clamp(d.x, -hx, hx), dy = d.y - clamp(d.y, -hy, hy);
    return v2_within(v2(dx, dy), circle->radius);
}

/* The same in contact form; the normal is from the rectangle to the circle. */
static void circle_rect_contact(const c2d_shape *circle, const c2d_shape *rect, c2d_contact *c)
{
    double r = circle->radius, hx = rect->data[0].x, hy = rect->data[0].y;
    c2d_vec2 d = to_local(rect, circle->pos);
    c2d_vec2 q = v2(clamp(d.x, -hx, hx), clamp(d.y, -hy, hy));
    c2d_vec2 n, on_rect;
    double depth;
    memset(c, 0, sizeof *c);
    if (q.x != d.x || q.y != d.y) {
        c2d_vec2 off = v2_sub(d, q);
        if (!v2_within(off, r))
            return;
        double dist = v2_len_safe(off);
        n = v2_normalize_or(off, v2(0, 1));
        depth = r - dist;
        on_rect = q;
    } else {
        /* Centre inside: push out through the nearest side. */
        double px = hx - fabs(d.x), py = hy - fabs(d.y);
        if (px <= py) {
            n = v2(d.x < 0 ? -1.0 : 1.0, 0.0);
            depth = r + px;
            on_rect = v2(n.x * hx, d.y);
        } else {
            n = v2(0.0, d.y < 0 ? -1.0 : 1.0);
            depth = r + py;
            on_rect = v2(d.x, n.y * hy);
        }
    }
    c2d_vec2 on_circle = v2_mad(d, -r, n);
    c->count = 1;
    c->depth = depth;
    c->point_depths[0] = depth;
    c->normal = rotate_out(rect, n);
    c->points[0] = v2_add(rect->pos, rotate_out(rect, v2_mid(on_rect, on_circle)));
}

/* The pair's frame (see shape.h). The shape with more core vertices is the frame, so the fewer are
 * carried; between equals the order is fixed by their geometry, never by the order of the arguments,
 * so that (a, b) and (b, a) compute in the same frame and agree exactly. */
static int frame_is_second(const c2d_shape *a, const c2d_shape *b)
{
    if (a->count != b->count)
        return b->count > a->count;
    if (a->type != b->type)
        return b->type > a->type;
    if (a->pos.x != b->pos.x)
        return b->pos.x > a->pos.x;
    if (a->pos.y != b->pos.y)
        return b->pos.y > a->pos.y;
    if (a->angle != b->angle)
        return b->angle > a->angle;
    if (a->radius != b->radius)
        return b->radius > a->radius;
    /* One placement for both, as a hitbox and a body of one entity have: their own cores decide,
     * so that only a shape and its exact copy are left without an order. */
    int slots = a->type == C2D_SHAPE_CIRCLE ? 0 : (a->type == C2D_SHAPE_RECT ? 1 : 2 * a->count);
    for (int i = 0; i < slots; i++) {
        if (a->data[i].x != b->data[i].x)
            return b->data[i].x > a->data[i].x;
        if (a->data[i].y != b->data[i].y)
            return b->data[i].y > a->data[i].y;
    }
    return 0;
}

/* Seed 001 and box2d-lite's box collider, in O(1): rectangle A against rectangle B through the four
 * face axes. In A's frame B is centred at d and turned by (c, s); along A's x axis B reaches
 * |c| hbx + |s| hby from its centre, so A's x face is separated by |d.x| - hax - that, and likewise for
 * A's y axis and, in B's frame, for B's two axes. The largest of the four separations is minus the
 * penetration depth (the minimum translation of two boxes is along one of their face normals), and
 * its face carries the contact. */
typedef struct box_pair {
    c2d_vec2 ha, hb; /* half extents */
    c2d_vec2 d;      /* B's centre in A's frame */
    double c, s;     /* B's rotation in A's frame */
    double sep;      /* the largest separation */
    int axis;        /* its axis: 0, 1 are A's x, y; 2, 3 are B's */
} box_pair;

static void box_separation(const c2d_shape *a, const c2d_shape *b, box_pair *p)
{
    c2d_xf xa = c2d_shape_xf(a);
    p->ha = a->data[0];
    p->hb = b->data[0];
    p->d = c2d_xf_local(xa, b->pos);
    p->c = a->c * b->c + a->s * b->s;
    p->s = a->c * b->s - a->s * b->c;
    double ac = fabs(p->c), as = fabs(p->s);
    c2d_vec2 db = v2(p->c * p->d.x + p->s * p->d.y, -p->s * p->d.x + p->c * p->d.y); /* d in B's frame */
    double sep[4];
    sep[0] = fabs(p->d.x) - p->ha.x - (ac * p->hb.x + as * p->hb.y);
    sep[1] = fabs(p->d.y) - p->ha.y - (as * p->hb.x + ac * p->hb.y);
    sep[2] = fabs(db.x) - p->hb.x - (ac * p->ha.x + as * p->ha.y);
    sep[3] = fabs(db.y) - p->hb.y - (as * p->ha.x + ac * p->ha.y);
    /* Ties go to the first axis, A's before B's, so one pair of boxes always gets one face. */
    int k = 0;
    double best = sep[0];
    for (int i = 1; i < 4; i++) {
        int more = sep[i] > best;
        k ^= (k ^ i) & -more; /* more ? i : k, in arithmetic GCC does not turn back into a branch */
        best = more ? sep[i] : best;
    }
    p->axis = k;
    p->sep = best;
}

/* The contact of a box pair whose largest separation is on one of A's axes (B's axes are handled by
 * exchanging the boxes first): normal and points in A's frame. The incident edge of B, the one facing
 * A's face most, is clipped to the face's extent; each clipped end gives a point midway between it and
 * the face. */
static void box_clip(const box_pair *p, c2d_contact *out)
{
    /* Which axis, which side and which clipped ends are coin tosses to the branch predictor for a
     * random pair, so they are chosen by indexing two-entry arrays (or by selects), not by branches:
     * the same numbers as choosing by branches. */
    static const double sign[2] = {1.0, -1.0};
    int ax = p->axis; /* 0 or 1 */
    const double dxy[2] = {p->d.x, p->d.y}, hxy[2] = {p->ha.x, p->ha.y};
    double dx = dxy[ax];
    double sg = sign[dx < 0];
    double nxy[2];
    nxy[ax] = sg;
    nxy[ax ^ 1] = 0;
    c2d_vec2 n = v2(nxy[0], nxy[1]);
    double face = hxy[ax], side = hxy[ax ^ 1];
    /* B's four edge normals in A's frame are +-(c, s) and +-(-s, c); the incident edge has the one
     * most against n. Edge k of B runs from its corner k to k + 1 (corners from (-hbx, -hby)). */
    c2d_vec2 bn[4] = {v2(p->s, -p->c), v2(p->c, p->s), v2(-p->s, p->c), v2(-p->c, -p->s)};
    int k = 0;
    double least = v2_dot(bn[0], n);
    for (int i = 1; i < 4; i++) {
        double di = v2_dot(bn[i], n);
        int less = di < least;
        k ^= (k ^ i) & -less;
        least = less ? di : least;
    }
    static const double cx[4] = {-1, 1, 1, -1}, cy[4] = {-1, -1, 1, 1};
    c2d_vec2 e[2];
    double t[2];
    for (int j = 0; j < 2; j++) {
        int q = (k + j) & 3;
        double lx = cx[q] * p->hb.x, ly = cy[q] * p->hb.y;
        double exy[2] = {p->d.x + (p->c * lx - p->s * ly), p->d.y + (p->s * lx + p->c * ly)};
        e[j] = v2(exy[0], exy[1]);
        t[j] = exy[ax ^ 1];
    }
    /* Clip to -side <= t <= side along the face, t the other coordinate. */
    double t0 = t[0], t1 = t[1];
    c2d_vec2 ends[2];
    int m = 0;
    if (t0 != t1) {
        double u0 = (-side - t0) / (t1 - t0), u1 = (side - t0) / (t1 - t0);
        double lo = c2d_maxd(0.0, c2d_mind(u0, u1)), hi = c2d_mind(1.0, c2d_maxd(u0, u1));
        if (lo <= hi) {
            c2d_vec2 at_lo[2], at_hi[2];
            at_lo[0] = e[0];
            at_lo[1] = v2_lerp(e[0], e[1], lo);
            at_hi[0] = e[1];
            at_hi[1] = v2_lerp(e[0], e[1], hi);
            ends[0] = at_lo[lo > 0];
            ends[1] = at_hi[hi < 1];
            m = 1 + (hi > lo);
        }
    }
    if (m == 0 && t0 != t1) {
        /* Beside the face's extent by rounding (boxes touching corner to corner): the end nearest
         * to it. */
        double g0 = c2d_maxd(t0 - side, -side - t0), g1 = c2d_maxd(t1 - side, -side - t1);
        ends[m++] = g0 <= g1 ? e[0] : e[1];
    } else if (m == 0) {
        ends[m++] = v2_dot(n, e[0]) <= v2_dot(n, e[1]) ? e[0] : e[1]; /* square to the face: the deeper end */
    }
    double depth = -p->sep, deepest = INFINITY;
    memset(out, 0, sizeof *out);
    out->normal = n;
    out->depth = depth;
    for (int i = 0; i < m; i++)
        deepest = c2d_mind(deepest, v2_dot(n, ends[i]) - face);
    for (int i = 0; i < m; i++) {
        double sep = v2_dot(n, ends[i]) - face;
        /* Ends beyond the face are no contact; when rounding puts every end there (touching), the
         * deepest stands for the touch. Kept by counting, not by a branch (whether an end is beyond
         * goes either way): a dropped end is written where the next one, if any, overwrites it,
         * and zeroed when none does. pd is clamped to 0..depth with the same bits as selects give. */
        int keep = !(sep > 0 && sep != deepest);
        double pd = -sep;
        out->points[out->count] = v2_mad(ends[i], -0.5 * sep, n);
        out->point_depths[out->count] = c2d_mind(depth, c2d_maxd(0.0, pd));
        out->count += keep;
    }
    if (out->count < m) { /* the slot of a dropped last end */
        out->points[out->count] = v2(0, 0);
        out->point_depths[out->count] = 0;
    }
}

/* The box pair's overlap: the largest separation is not positive (touching counts). Computed with
 * the boxes in the pair's order (see frame_is_second), so that both argument orders agree exactly. */
static int box_box_overlap(const c2d_shape *a, const c2d_shape *b)
{
    /* The order by selects: which box comes first is a coin toss to the branch predictor. */
    const c2d_shape *pair[2] = {a, b};
    int swap = frame_is_second(a, b);
    box_pair p;
    box_separation(pair[swap], pair[swap ^ 1], &p);
    return p.sep <= 0;
}

/* Two boxes at angle 0 (sine exactly 0, cosine 1: tiles, platforms, the boxes of bump.lua): the
 * contact of box_separation and box_clip with the rotation left out. The separations are the same
 * numbers; the clipped ends are the incident edge's ends clamped to the reference face's extent,
 * exactly, where the turned case interpolates (the same points to an ulp). The pair is in its order
 * (see frame_is_second) and the edge runs as box_clip's does, counter-clockwise round the incident box,
 * so both argument orders agree exactly and the points come in the same order. */
#if defined(__GNUC__)
__attribute__((noinline)) /* out of line, so that the turned boxes' path keeps its registers */
#endif
static void box_box_aligned(const c2d_shape *a, const c2d_shape *b, int swap, c2d_contact *out)
{
    static const double sign[2] = {1.0, -1.0};
    double dx = b->pos.x - a->pos.x, dy = b->pos.y - a->pos.y;
    double adx = fabs(dx), ady = fabs(dy);
    c2d_vec2 ha = a->data[0], hb = b->data[0];
    double sep[4];
    sep[0] = adx - ha.x - hb.x;
    sep[1] = ady - ha.y - hb.y;
    sep[2] = adx - hb.x - ha.x;
    sep[3] = ady - hb.y - ha.y;
    int k = 0;
    double best = sep[0];
    for (int i = 1; i < 4; i++) {
        int more = sep[i] > best;
        k ^= (k ^ i) & -more;
        best = more ? sep[i] : best;
    }
    memset(out, 0, sizeof *out);
    if (best > 0)
        return;
    int flip = k >> 1, ax = k & 1;
    const c2d_shape *pair[2] = {a, b};
    const c2d_shape *ref = pair[flip], *inc = pair[flip ^ 1];
    /* The incident box's centre in the reference box's frame, per axis (a's offset from b is
     * b's from a negated, exactly: the rounding of a difference is symmetric). */
    const double d[2] = {inc->pos.x - ref->pos.x, inc->pos.y - ref->pos.y};
    const double hr[2] = {ref->data[0].x, ref->data[0].y}, hi[2] = {inc->data[0].x, inc->data[0].y};
    double sg = sign[d[ax] < 0];
    double face = hr[ax], side = hr[ax ^ 1];
    /* The incident edge, at the incident box's face towards the reference one; its ends along the
     * face, in box_clip's order: counter-clockwise round the incident box, which runs down the
     * tangent on the x axes' faces with n = +x and on the y axes' with n = -y. */
    double en = d[ax] - sg * hi[ax];
    int down = (ax == 0) == (sg > 0);
    double t0 = d[ax ^ 1] + sign[down ^ 1] * hi[ax ^ 1], t1 = d[ax ^ 1] + sign[down] * hi[ax ^ 1];
    double ends[2];
    int m;
    double lo = c2d_maxd(c2d_mind(t0, t1), -side), hi_t = c2d_mind(c2d_maxd(t0, t1), side);
    if (lo <= hi_t) {
        const double lohi[2] = {lo, hi_t};
        ends[0] = lohi[down];
        ends[1] = lohi[down ^ 1];
        m = 1 + (hi_t > lo);
    } else {
        /* Beside the face's extent by rounding (boxes touching corner to corner): the end nearest
         * to it. */
        double g0 = c2d_maxd(t0 - side, -side - t0), g1 = c2d_maxd(t1 - side, -side - t1);
        ends[0] = g0 <= g1 ? t0 : t1;
        m = 1;
    }
    double depth = -best;
    double s = sg * en - face; /* every end lies on the incident edge: one separation for all */
    double pd = -s;
    pd = pd < 0 ? 0 : (pd > depth ? depth : pd);
    double pn = en - 0.5 * s * sg;
    /* The normal from the reference box to the incident one, then from a to b, then for the
     * arguments' order; the points back in the world. */
    double ns = sg * sign[flip] * sign[swap];
    double nxy[2], pt[2];
    nxy[ax] = ns;
    nxy[ax ^ 1] = 0;
    out->normal = v2(nxy[0], nxy[1]);
    out->depth = depth;
    for (int i = 0; i < m; i++) {
        pt[ax] = pn;
        pt[ax ^ 1] = ends[i];
        out->points[i] = v2(ref->pos.x + pt[0], ref->pos.y + pt[1]);
        out->point_depths[i] = pd;
    }
    out->count = m;
}

static void box_box(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    /* In the pair's order (see frame_is_second), chosen by selects rather than a branch, which a
     * random pair would miss half the time; the normal is turned back at the end. */
    const c2d_shape *pair[2] = {a, b};
    int swap = frame_is_second(a, b);
    a = pair[swap];
    b = pair[swap ^ 1];
    if (a->s == 0 && b->s == 0 && a->c == 1 && b->c == 1) {
        box_box_aligned(a, b, swap, out);
        return;
    }
    box_pair p;
    box_separation(a, b, &p);
    if (p.sep > 0) {
        memset(out, 0, sizeof *out);
        return;
    }
    int flip = p.axis >= 2;
    pair[0] = a;
    pair[1] = b;
    const c2d_shape *ref = pair[flip];
    /* B's face carries it when flip: the same in B's frame, with A as the incident box. Both frames'
     * numbers are computed and one is picked by indexing: which box's face it is goes either way. */
    static const double sign[2] = {1.0, -1.0};
    const c2d_vec2 hs[2] = {p.ha, p.hb}, ds[2] = {p.d, c2d_xf_local(c2d_shape_xf(b), a->pos)};
    box_pair q = p;
    q.ha = hs[flip];
    q.hb = hs[flip ^ 1];
    q.d = ds[flip];
    q.s = sign[flip] * p.s; /* -p.s, exactly, signs of zeros included */
    q.axis = p.axis - 2 * flip;
    box_clip(&q, out);
    /* Minus for B's face before turning into the world, and minus for the exchanged pair after, as
     * negations (multiplying by -1 is exact and gives the same bits, signs of zeros included). A
     * miss stays all zeros (results compare byte for byte): no -0 normal. */
    double sf = sign[flip], ss = out->count > 0 ? sign[swap] : 1.0;
    c2d_xf x = c2d_shape_xf(ref);
    c2d_vec2 n = c2d_rotate(x, v2(sf * out->normal.x, sf * out->normal.y));
    out->normal = v2(ss * n.x, ss * n.y);
    for (int i = 0; i < out->count; i++)
        out->points[i] = c2d_xf_apply(x, out->points[i]);
}

c2d_status c2d_pair_frame_init(c2d_pair_frame *f, const c2d_shape *a, const c2d_shape *b)
{
    int swap = frame_is_second(a, b);
    const c2d_shape *home = swap ? b : a, *carried = swap ? a : b;
    f->heap = NULL;
    c2d_vec2 *v = f->cv, *n = f->cn;
    if (carried->count > C2D_PAIR_STACK) {
        f->heap = malloc(2 * (size_t)carried->count * sizeof(c2d_vec2));
        if (!f->heap)
            return C2D_ERR_NO_MEMORY;
        v = (c2d_vec2 *)f->heap;
        n = v + carried->count;
    }
    c2d_core own, other;
    if (home->count <= 2) {
        f->frame.p = v2(0, 0);
        f->frame.c = 1;
        f->frame.s = 0;
        own = c2d_world_core(home, f->own.v, f->on);
        other = c2d_world_core(carried, v, n);
    } else {
        f->frame = c2d_shape_xf(home);
        own = c2d_local_core(home, &f->own);
        other = c2d_core_placed(carried, c2d_xf_relative(f->frame, c2d_shape_xf(carried)), v, n);
    }
    f->a = swap ? other : own;
    f->b = swap ? own : other;
    f->swap = swap;
    return C2D_OK;
}

void c2d_pair_frame_free(c2d_pair_frame *f)
{
    free(f->heap);
    f->heap = NULL;
}

/* A circle against a polygon (not a rectangle: those have their own path), in the polygon's frame,
 * where its core is stored: only the centre is carried in, and the result carried out. The normal is
 * from the polygon to the circle (negated when flip). The edge of greatest separation is found here,
 * where the loop reads the shape's own arrays; a centre inside the polygon answers an overlap at
 * once, and the rest (face or corner) is c2d_circle_polygon_from's. */
static int circle_polygon(const c2d_shape *circle, const c2d_shape *poly, c2d_contact *out, int flip)
{
    const int n = poly->count;
    const c2d_vec2 *v = poly->data, *nv = poly->data + n;
    double dx = circle->pos.x - poly->pos.x, dy = circle->pos.y - poly->pos.y;
    double cx = poly->c * dx + poly->s * dy, cy = -poly->s * dx + poly->c * dy, r = circle->radius;
    double s = -INFINITY;
    int e = 0;
    for (int i = 0; i < n; i++) {
        double si = nv[i].x * (cx - v[i].x) + nv[i].y * (cy - v[i].y);
        if (si > r) {
            if (out)
                memset(out, 0, sizeof *out);
            return 0;
        }
        e = si > s ? i : e;
        s = si > s ? si : s;
    }
    if (!out && s <= 0)
        return 1;
    c2d_core k;
    k.v = v;
    k.n = nv;
    k.count = n;
    k.radius = 0;
    int hit = c2d_circle_polygon_from(v2(cx, cy), r, &k, e, s, out, flip);
    if (out && out->count > 0) {
        c2d_xf x = c2d_shape_xf(poly);
        out->normal = c2d_rotate(x, out->normal);
        out->points[0] = c2d_xf_apply(x, out->points[0]);
    }
    return hit;
}

/* A capsule or segment against a polygon (not a rectangle), in the polygon's frame as the pair frame
 * has it (c2d_pair_frame_init): only the two end points and the two normals are carried in. Both
 * separating-axis passes run in one loop over the polygon, with the same products, minima and ties
 * as separation_until's, and the cores' closest points are c2d_core_distance's (see
 * capsule_polygon_distance), so the answers are those of the general path bit for bit; the rest is
 * c2d_collide_cores_sat's. Up to 16 polygon vertices, where separation_until scans every pair too
 * (beyond, it walks, whose minima may differ from a scan's by rounding). */
#define C2D_CAPSULE_POLYGON_MAX 16

/* What capsule_polygon_distance reads: the polygon's vertices and normals, the capsule's ends, its
 * normal 0 and the product hc of that normal with end 0 (the capsule's line). */
typedef struct cap_poly {
    const c2d_vec2 *pv, *pn, *cv;
    c2d_vec2 m0;
    int n;
    double hc;
} cap_poly;


/* Candidate c of c2d_core_distance: c < n, capsule end 0 against polygon edge c; c < 2n, end 1 against
 * edge c - n; else polygon vertex c - 2n against the capsule's segment. Its squared distance as
 * vertices_to_edges computes it, and the two points. */
static double cap_poly_candidate(const cap_poly *k, int c, c2d_vec2 *on_cap, c2d_vec2 *on_poly)
{
    int n = k->n;
    c2d_vec2 p, q;
    if (c < 2 * n) {
        int j = c >= n, e = c - j * n;
        p = k->cv[j];
        q = c2d_segment_closest(k->pv[e], k->pv[e + 1 == n ? 0 : e + 1], p);
        *on_cap = p;
        *on_poly = q;
    } else {
        p = k->pv[c - 2 * n];
        q = c2d_segment_closest(k->cv[0], k->cv[1], p);
        *on_cap = q;
        *on_poly = p;
    }
    return v2_len2(v2_sub(p, q));
}

/* c2d_core_distance of the capsule and polygon cores (a the capsule when a_is_cap), bit for bit. That
 * one tries every vertex against every edge (capsule ends against polygon edges, polygon vertices
 * against the capsule's segment, in the order of the arguments) and keeps the first of the least
 * squared distances. Here one likely candidate, `guess`, is computed first; its squared distance u
 * bounds the least. A candidate's distance is at least its vertex's separation from the edge's line
 * less rounding, which tol (1e-12 of the coordinates' size, thousands of times the rounding of the
 * products, the placed points and the closest point) covers; one whose separation passes sqrt(u) by
 * more than that computes a squared distance above u, can be neither the least nor tie with it, and
 * is not tried. The rest are tried in the original order, so ties go where they went. With within,
 * the caller only asks whether the distance is at most r, and gets the guess when it is. */
static double capsule_polygon_distance(const cap_poly *k, double size, int guess, int a_is_cap, int within,
                                       double r, c2d_vec2 *pa, c2d_vec2 *pb)
{
    int n = k->n;
    c2d_vec2 gc, gp, bc = v2(0, 0), bp = v2(0, 0);
    double u = cap_poly_candidate(k, guess, &gc, &gp), root = sqrt(u);
    if (within && root > 1e-140 && root < 1e150 && root <= r) {
        /* Only whether the distance is within r: the least squared distance is at most u, and
         * v2_len_safe is its root (or, below 1e-150, far below root), so the answer's distance is
         * at most root. */
        *pa = a_is_cap ? gc : gp;
        *pb = a_is_cap ? gp : gc;
        return root;
    }
    double tol = 1e-12 * size;
    double thr = (tol + root) * (1 + 1e-12) + 1e-150;
    /* The bounds, each less than the candidate's distance by at most tol: for an end against an
     * edge, the end's separation from the edge's line (and from the polygon, its largest separation
     * from any edge's line: far0, far1); for a vertex against the capsule's segment, its separation
     * from the capsule's line and how far it passes the segment's ends along it (w against lo, hi).
     * Survivors by their rank in c2d_core_distance's order: the polygon's vertices come first when
     * the polygon is a. */
    int shift_ends = a_is_cap ? 0 : n, shift_verts = a_is_cap ? 2 * n : 0;
    const c2d_vec2 c0 = k->cv[0], c1 = k->cv[1], m0 = k->m0, tc = v2(-m0.y, m0.x);
    double wc0 = v2_dot(tc, c0), wc1 = v2_dot(tc, c1);
    double lo = c2d_mind(wc0, wc1) - thr, hi = c2d_maxd(wc0, wc1) + thr, hc = k->hc;
    double far0 = -INFINITY, far1 = -INFINITY;
    uint64_t keep0 = 0, keep1 = 0, keep_v = 0;
    for (int i = 0; i < n; i++) {
        const c2d_vec2 m = k->pn[i], p = k->pv[i];
        double dv = v2_dot(m, p), g0 = v2_dot(m, c0) - dv, g1 = v2_dot(m, c1) - dv;
        double w = v2_dot(tc, p);
        far0 = c2d_maxd(far0, g0);
        far1 = c2d_maxd(far1, g1);
        keep0 |= (uint64_t)(fabs(g0) <= thr) << i;
        keep1 |= (uint64_t)(fabs(g1) <= thr) << i;
        keep_v |= (uint64_t)((fabs(v2_dot(m0, p) - hc) <= thr) & (w >= lo) & (w <= hi)) << i;
    }
    keep0 &= -(uint64_t)(far0 <= thr);
    keep1 &= -(uint64_t)(far1 <= thr);
    uint64_t keep = (keep0 | keep1 << n) << shift_ends | keep_v << shift_verts;
    int guess_rank = guess < 2 * n ? guess + shift_ends : guess - 2 * n + shift_verts;
    keep &= ~((uint64_t)1 << guess_rank);
    double best = INFINITY;
    int best_rank = 3 * n;
    while (keep) {
        int rank = c2d_lowest_bit(keep);
        keep &= keep - 1;
        int c = a_is_cap ? rank : (rank < n ? rank + 2 * n : rank - n);
        c2d_vec2 oc, op;
        double d2 = cap_poly_candidate(k, c, &oc, &op);
        if (d2 < best) {
            best = d2;
            best_rank = rank;
            bc = oc;
            bp = op;
        }
    }
    if (u < best || (u == best && guess_rank < best_rank)) {
        bc = gc;
        bp = gp;
    }
    *pa = a_is_cap ? bc : bp;
    *pb = a_is_cap ? bp : bc;
    return v2_len_safe(v2_sub(*pb, *pa));
}

/* Returns whether they overlap; out, when not NULL, gets the contact in the world (normal from a to
 * b, a the capsule when a_is_cap). The pair's bounding circles are the caller's. */
static int capsule_polygon(const c2d_shape *cap, const c2d_shape *poly, c2d_contact *out, int a_is_cap)
{
    const int n = poly->count;
    const c2d_vec2 *pv = poly->data, *pn = poly->data + n;
    c2d_xf frame = c2d_shape_xf(poly), rel = c2d_xf_relative(frame, c2d_shape_xf(cap));
    c2d_vec2 cv[2], cn[2];
    cv[0] = c2d_xf_apply(rel, cap->data[0]);
    cv[1] = c2d_xf_apply(rel, cap->data[1]);
    cn[0] = c2d_rotate(rel, cap->data[2]);
    cn[1] = c2d_rotate(rel, cap->data[3]);
    double r = cap->radius;
    /* The polygon's normals against the capsule's two ends (sp, on edge ep; any edge beyond r ends
     * it: no contact), and the capsule's normals against the polygon's vertices (lo0 and hi0, the
     * least and greatest products along normal 0, at vertices i0 and i1). The capsule's normal 1 is exactly minus its normal 0 (stored so, and rotating commutes with
     * negation), so its least product over the vertices is minus the greatest along normal 0, and
     * a first greatest is where a first least is: the same values as separation_until's but for the
     * sign of a zero, which no answer reads (a zero separation gives the same depth either way). */
    const c2d_vec2 c0 = cv[0], c1 = cv[1], m0 = cn[0];
    double sp = -INFINITY, lo0 = v2_dot(m0, pv[0]), hi0 = lo0;
    int ep = 0, i0 = 0, i1 = 0;
    for (int i = 0; i < n; i++) {
        const c2d_vec2 m = pn[i], p = pv[i];
        double dc0 = v2_dot(m, c0), dc1 = v2_dot(m, c1), dv = v2_dot(m, p);
        /* separation_until's d = min(dc0, dc1) and d - dv */
        double si = (dc1 < dc0 ? dc1 : dc0) - dv;
        if (si > r)
            goto apart;
        ep = si > sp ? i : ep;
        sp = c2d_maxd(si, sp);
        double d0 = v2_dot(m0, p);
        i0 = d0 < lo0 ? i : i0;
        lo0 = d0 < lo0 ? d0 : lo0;
        i1 = d0 > hi0 ? i : i1;
        hi0 = d0 > hi0 ? d0 : hi0;
    }
    double hc = v2_dot(m0, c0);
    double s0 = lo0 - hc, s1 = -hi0 - v2_dot(cn[1], c1);
    int ec = s1 > s0;
    double sc = ec ? s1 : s0;
    if (sc > r) {
    apart:
        if (out)
            memset(out, 0, sizeof *out);
        return 0;
    }
    c2d_core kp, kc;
    kp.v = pv;
    kp.n = pn;
    kp.count = n;
    kp.radius = poly->radius;
    kc.v = cv;
    kc.n = cn;
    kc.count = 2;
    kc.radius = r;
    const c2d_core *a = a_is_cap ? &kc : &kp, *b = a_is_cap ? &kp : &kc;
    double sa = a_is_cap ? sc : sp, sb = a_is_cap ? sp : sc;
    int ea = a_is_cap ? ec : ep, eb = a_is_cap ? ep : ec;
    c2d_closest cl, *clp = NULL;
    if (c2d_maxd(sa, sb) > 0) {
        /* Cores apart: their closest points. The likely pair: the nearer capsule end against the
         * polygon's edge of greatest separation, or the polygon's vertex deepest along the capsule's
         * normal of greatest separation against the capsule's segment. */
        int jp = v2_dot(pn[ep], c1) < v2_dot(pn[ep], c0);
        int guess = sp >= sc ? ep + jp * n : 2 * n + (ec ? i1 : i0);
        double size = 1.5 * poly->reach + (fabs(cv[0].x) + fabs(cv[0].y)) + (fabs(cv[1].x) + fabs(cv[1].y));
        cap_poly k;
        k.pv = pv;
        k.pn = pn;
        k.cv = cv;
        k.n = n;
        k.hc = hc;
        k.m0 = cn[0];
        cl.d = capsule_polygon_distance(&k, size, guess, a_is_cap, !out, r, &cl.pa, &cl.pb);
        clp = &cl;
        if (!out)
            return cl.d <= a->radius + b->radius;
    } else if (!out) {
        return 1;
    }
    memset(out, 0, sizeof *out);
    c2d_collide_cores_sat(a, b, sa, ea, sb, eb, clp, out);
    if (out->count == 0)
        return 0;
    out->normal = c2d_rotate(frame, out->normal);
    for (int i = 0; i < out->count; i++)
        out->points[i] = c2d_xf_apply(frame, out->points[i]);
    return 1;
}

/* Two circles, in the world: the same comparisons as the general path (c2d_collide_cores), so the
 * answer is the same, without building cores. */
static int circle_circle(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    c2d_vec2 d = v2_sub(b->pos, a->pos);
    double reach = a->radius + b->radius;
    if (!v2_within(d, reach)) {
        if (out)
            memset(out, 0, sizeof *out);
        return 0;
    }
    if (!out)
        return 1;
    double dist = v2_len_safe(d);
    /* Concentric circles have no direction between them: (0, 1) from the pair's first shape in the
     * frame order (see frame_is_second), so that the two argument orders get opposite normals. */
    c2d_vec2 n = v2_normalize_or(d, v2(0, 0));
    if (n.x == 0 && n.y == 0) /* only then: asked every time, the order is a missed branch in two */
        n = frame_is_second(a, b) ? v2(0, -1) : v2(0, 1);
    memset(out, 0, sizeof *out);
    out->normal = n;
    /* The root of a rounded square may pass the reach by an ulp: that is touching, at depth 0. */
    out->depth = reach - dist > 0 ? reach - dist : 0.0;
    out->count = 1;
    out->points[0] = v2_mid(v2_mad(a->pos, a->radius, n), v2_mad(b->pos, -b->radius, n));
    out->point_depths[0] = out->depth;
    return 1;
}

/* The pair kinds with a path of their own: circles, rectangles and polygons against each other, and
 * capsules and segments against polygons, as below. The circles' and rectangles' own tests reject a
 * far pair at once, so the bounding circles are only asked for the capsule's path and the general
 * one, where they save the SAT passes. */
#define C2D_PAIR(ta, tb) ((int)(ta) * 8 + (int)(tb))

c2d_status c2d_convex_overlap(const c2d_shape *a, const c2d_shape *b, int *out)
{
    switch (C2D_PAIR(a->type, b->type)) {
    case C2D_PAIR(C2D_SHAPE_CIRCLE, C2D_SHAPE_CIRCLE): *out = circle_circle(a, b, NULL); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_RECT, C2D_SHAPE_RECT): *out = box_box_overlap(a, b); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_CIRCLE, C2D_SHAPE_RECT): *out = circle_rect_overlap(a, b); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_RECT, C2D_SHAPE_CIRCLE): *out = circle_rect_overlap(b, a); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_CIRCLE, C2D_SHAPE_POLYGON): *out = circle_polygon(a, b, NULL, 0); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_POLYGON, C2D_SHAPE_CIRCLE): *out = circle_polygon(b, a, NULL, 0); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_CAPSULE, C2D_SHAPE_POLYGON):
    case C2D_PAIR(C2D_SHAPE_SEGMENT, C2D_SHAPE_POLYGON):
        if (b->count > C2D_CAPSULE_POLYGON_MAX)
            break;
        *out = !circles_apart(a, b) && capsule_polygon(a, b, NULL, 1);
        return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_POLYGON, C2D_SHAPE_CAPSULE):
    case C2D_PAIR(C2D_SHAPE_POLYGON, C2D_SHAPE_SEGMENT):
        if (a->count > C2D_CAPSULE_POLYGON_MAX)
            break;
        *out = !circles_apart(a, b) && capsule_polygon(b, a, NULL, 0);
        return C2D_OK;
    default: break;
    }
    if (circles_apart(a, b)) {
        *out = 0;
        return C2D_OK;
    }
    c2d_pair_frame f;
    c2d_status st = c2d_pair_frame_init(&f, a, b);
    if (st != C2D_OK)
        return st;
    *out = c2d_overlap_cores(&f.a, &f.b);
    c2d_pair_frame_free(&f);
    return C2D_OK;
}

c2d_status c2d_convex_collide(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    switch (C2D_PAIR(a->type, b->type)) {
    case C2D_PAIR(C2D_SHAPE_CIRCLE, C2D_SHAPE_CIRCLE): circle_circle(a, b, out); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_RECT, C2D_SHAPE_RECT): box_box(a, b, out); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_CIRCLE, C2D_SHAPE_RECT):
        circle_rect_contact(a, b, out);
        if (out->count > 0)
            out->normal = v2_neg(out->normal);
        return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_RECT, C2D_SHAPE_CIRCLE): circle_rect_contact(b, a, out); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_CIRCLE, C2D_SHAPE_POLYGON): circle_polygon(a, b, out, 1); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_POLYGON, C2D_SHAPE_CIRCLE): circle_polygon(b, a, out, 0); return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_CAPSULE, C2D_SHAPE_POLYGON):
    case C2D_PAIR(C2D_SHAPE_SEGMENT, C2D_SHAPE_POLYGON):
        if (b->count > C2D_CAPSULE_POLYGON_MAX)
            break;
        if (circles_apart(a, b))
            memset(out, 0, sizeof *out);
        else
            capsule_polygon(a, b, out, 1);
        return C2D_OK;
    case C2D_PAIR(C2D_SHAPE_POLYGON, C2D_SHAPE_CAPSULE):
    case C2D_PAIR(C2D_SHAPE_POLYGON, C2D_SHAPE_SEGMENT):
        if (a->count > C2D_CAPSULE_POLYGON_MAX)
            break;
        if (circles_apart(a, b))
            memset(out, 0, sizeof *out);
        else
            capsule_polygon(b, a, out, 0);
        return C2D_OK;
    default: break;
    }
    if (circles_apart(a, b)) {
        memset(out, 0, sizeof *out);
        return C2D_OK;
    }
    /* In the pair's frame, then back into the world. */
    c2d_pair_frame f;
    c2d_status st = c2d_pair_frame_init(&f, a, b);
    if (st != C2D_OK)
        return st;
    /* Always the frame's shape first, whichever order the arguments came in, and the normal turned
     * round for the other order: where the geometry ties (concentric squares) the order of the cores
     * would otherwise pick the face, and both orders would get the same normal. */
    if (f.swap)
        c2d_collide_cores(&f.b, &f.a, out);
    else
        c2d_collide_cores(&f.a, &f.b, out);
    c2d_pair_frame_free(&f);
    if (out->count > 0) {
        if (f.swap)
            out->normal = v2_neg(out->normal);
        out->normal = c2d_rotate(f.frame, out->normal);
        for (int i = 0; i < out->count; i++)
            out->points[i] = c2d_xf_apply(f.frame, out->points[i]);
    }
    return C2D_OK;
}
