/* collide.c - the public overlap and contact calls: argument checks, a bounding-box rejection, and
 * the fast paths where geometry allows a cheaper exact answer than the general SAT of sat.c:
 *  - circle against rectangle in the rectangle's own frame (seed 000: rotate the centre, clamp);
 *  - rectangle against rectangle with the O(1) rotation-matrix test (seed 001, box2d-lite): the
 *    extent of B along A's axes is |C| * hB with C = R_A^T R_B, and the same in B's frame;
 *  - axis-aligned rectangles, where the bounding boxes are the shapes.
 * Every fast path decides touching (distance exactly 0) as overlap, like the general path. */
#include "shape.h"

#include <string.h>

/* The four comparisons joined with | rather than ||: one branch on the result instead of up to four,
 * each about as unpredictable as the answer. */
static int aabbs_apart(const c2d_shape *a, const c2d_shape *b)
{
    return (a->aabb.min.x > b->aabb.max.x) | (b->aabb.min.x > a->aabb.max.x) | (a->aabb.min.y > b->aabb.max.y) |
           (b->aabb.min.y > a->aabb.max.y);
}

/* p expressed in the frame of shape s (relative to its position, unrotated). */
static c2d_vec2 to_local(const c2d_shape *s, c2d_vec2 p)
{
    c2d_vec2 d = v2_sub(p, s->pos);
    return v2(s->cos_a * d.x + s->sin_a * d.y, -s->sin_a * d.x + s->cos_a * d.y);
}

static c2d_vec2 rotate_out(const c2d_shape *s, c2d_vec2 v)
{
    return v2(s->cos_a * v.x - s->sin_a * v.y, s->sin_a * v.x + s->cos_a * v.y);
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* Seed 000/003: the circle overlaps the rectangle iff the rectangle point nearest to the centre,
 * found by clamping in the rectangle's frame, is within the radius. */
static int circle_rect_overlap(const c2d_shape *circle, const c2d_shape *rect)
{
    c2d_vec2 d = to_local(rect, circle->pos);
    double dx = d.x - clamp(d.x, -rect->hx, rect->hx), dy = d.y - clamp(d.y, -rect->hy, rect->hy);
    return v2_within(v2(dx, dy), circle->radius);
}

/* The same in contact form; the normal is from the rectangle to the circle. */
static void circle_rect_contact(const c2d_shape *circle, const c2d_shape *rect, c2d_contact *c)
{
    double r = circle->radius, hx = rect->hx, hy = rect->hy;
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

/* Seed 001: the O(1) box-box test. Returns 1 or 0 when the answer is clear by more than rounding,
 * and -1 within rounding of touching, where the caller asks the general path so that overlap and
 * contact always agree on touching pairs. */
static int rect_rect_overlap(const c2d_shape *a, const c2d_shape *b)
{
    c2d_vec2 d = to_local(a, b->pos);
    /* C = R_A^T R_B, from the angle difference without another sin/cos. */
    double c00 = a->cos_a * b->cos_a + a->sin_a * b->sin_a;  /* cos(b - a) */
    double c10 = a->cos_a * b->sin_a - a->sin_a * b->cos_a;  /* sin(b - a) */
    double ac = fabs(c00), as = fabs(c10);
    /* B's axes: d in B's frame is C^T d. */
    double bx = c00 * d.x + c10 * d.y, by = -c10 * d.x + c00 * d.y;
    double gap = fabs(d.x) - (a->hx + ac * b->hx + as * b->hy);
    gap = fmax(gap, fabs(d.y) - (a->hy + as * b->hx + ac * b->hy));
    gap = fmax(gap, fabs(bx) - (b->hx + ac * a->hx + as * a->hy));
    gap = fmax(gap, fabs(by) - (b->hy + as * a->hx + ac * a->hy));
    double tol = 1e-12 * (a->hx + a->hy + b->hx + b->hy + fabs(a->pos.x) + fabs(a->pos.y) + fabs(b->pos.x) +
                          fabs(b->pos.y));
    if (gap > tol)
        return 0;
    if (gap < -tol)
        return 1;
    return -1;
}

c2d_status c2d_overlap(const c2d_shape *a, const c2d_shape *b, int *out)
{
    if (!a || !b || !out)
        return C2D_ERR_NULL;
    if (aabbs_apart(a, b)) {
        *out = 0;
        return C2D_OK;
    }
    c2d_shape_type ta = a->type, tb = b->type;
    int fast = -1;
    if (ta == C2D_SHAPE_RECT && tb == C2D_SHAPE_RECT && !(a->axis_aligned && b->axis_aligned))
        fast = rect_rect_overlap(a, b);
    if (fast >= 0)
        *out = fast;
    else if (ta == C2D_SHAPE_CIRCLE && tb == C2D_SHAPE_RECT)
        *out = circle_rect_overlap(a, b);
    else if (ta == C2D_SHAPE_RECT && tb == C2D_SHAPE_CIRCLE)
        *out = circle_rect_overlap(b, a);
    else
        *out = c2d_overlap_cores(a, b);
    return C2D_OK;
}

c2d_status c2d_collide(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    if (!a || !b || !out)
        return C2D_ERR_NULL;
    if (aabbs_apart(a, b)) {
        memset(out, 0, sizeof *out);
        return C2D_OK;
    }
    if (a->type == C2D_SHAPE_CIRCLE && b->type == C2D_SHAPE_RECT) {
        circle_rect_contact(a, b, out);
        out->normal = v2_neg(out->normal);
    } else if (a->type == C2D_SHAPE_RECT && b->type == C2D_SHAPE_CIRCLE) {
        circle_rect_contact(b, a, out);
    } else {
        c2d_collide_cores(a, b, out);
    }
    return C2D_OK;
}
