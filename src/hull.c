/* hull.c - turning user point lists into strictly convex counter-clockwise polygons: convexity
 * validation for ordered input, and the convex hull (Andrew's monotone chain) for point clouds.
 *
 * Whether a list is refused is decided exactly: equality of coordinates and the sign of the orientation
 * determinant of three input points (c2d_orient, predicates.c). Points all on one line (or fewer than 3
 * distinct ones) are degenerate; an outline that turns both ways, doubles back on itself or winds
 * more than once is not convex. A polygon is accepted however thin: a triangle 1e6 long and 1e-6 high,
 * a quadrilateral 1e15 long and 2 high, a sharp tip whose sides are a rounding apart. (Until issue 22
 * the decisions were relative: points within 1e-12 of the size coincided, a turn within a sine of
 * 1e-12 of a reversal was a spike, and twice an area below 1e-12 of the size squared was "collinear",
 * which the header did not say.)
 *
 * One tolerance stays, and it refuses nothing: a vertex where the boundary goes on (does not turn back)
 * by an angle whose sine is at most C2D_STRAIGHT_SINE is dropped like a point in the middle of a
 * straight edge, while more than three vertices are left. The contact code tells a polygon's edges
 * apart by their normals (the incident face is the edge whose normal opposes the reference face's
 * most; the reference face, the edge of least penetration): two neighbouring edges within rounding of
 * parallel tie there, and the tie went to an edge far from the contact (a sliver whose long sides were
 * made of several such edges got contact points 40% of its length off the shapes). The dropped vertex
 * lies within C2D_STRAIGHT_SINE times its shorter edge of the edge that replaces it. The centroid and
 * the rounding of a thin polygon's vertices are shape.c's concern: see new_polygon. Layer 2, shapes. */
#include "predicates.h"
#include "shape.h"

#include <stdlib.h>
#include <string.h>

/* The sine below which a vertex that goes on counts as on a straight edge (header: c2d_polygon_new). */
#define C2D_STRAIGHT_SINE 1e-12

/* Drops consecutive (cyclically) equal points in place; returns the new count. */
static int drop_duplicates(c2d_vec2 *p, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && v2_eq(p[i], p[m - 1]))
            continue;
        p[m++] = p[i];
    }
    while (m > 1 && v2_eq(p[m - 1], p[0]))
        m--;
    return m;
}

/* For three points on one line, b distinct from both others: whether b lies strictly between a and c
 * (by comparing coordinates, exact). */
static int strictly_between(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    if (a.x != c.x)
        return (a.x < b.x && b.x < c.x) || (c.x < b.x && b.x < a.x);
    return (a.y < b.y && b.y < c.y) || (c.y < b.y && b.y < a.y);
}

enum { TURN_RIGHT = -1, TURN_STRAIGHT = 0, TURN_LEFT = 1, TURN_SPIKE = 2, TURN_NEARLY = 3 };

/* The turn prev -> cur -> next (cur differs from both), exactly: left, right, straight on, or a
 * straight reversal (a spike). With nearly set, a turn either way that goes on by a sine of at most
 * C2D_STRAIGHT_SINE is TURN_NEARLY (the cross product's rounding, a few ulps of |e1| |e2|, is far
 * below that bound, so only turns within rounding of it may go either way). */
static int turn(c2d_vec2 prev, c2d_vec2 cur, c2d_vec2 next, int nearly)
{
    int o = c2d_orient(prev, cur, next);
    if (o == 0)
        return strictly_between(prev, cur, next) ? TURN_STRAIGHT : TURN_SPIKE;
    if (nearly) {
        c2d_vec2 e1 = v2_sub(cur, prev), e2 = v2_sub(next, cur);
        if (v2_dot(e1, e2) > 0 && fabs(v2_cross(e1, e2)) <= C2D_STRAIGHT_SINE * v2_len(e1) * v2_len(e2))
            return TURN_NEARLY;
    }
    return o;
}

/* Removes vertices in the middle of straight edges in one stack pass (O(n), so long straight runs of
 * points cost nothing extra); fails on spikes, where the boundary doubles back on itself. With nearly
 * set, vertices that go on nearly straight are removed too, while more than three are left. */
static c2d_status drop_straight(c2d_vec2 *p, int *n, int nearly)
{
    int m = 0, start = 0, total = *n;
    for (int i = 0; i < *n; i++) {
        p[m++] = p[i];
        while (m >= 3) {
            int t = turn(p[m - 3], p[m - 2], p[m - 1], nearly);
            if (t == TURN_SPIKE)
                return C2D_ERR_NOT_CONVEX;
            if (t != TURN_STRAIGHT && !(t == TURN_NEARLY && total > 3))
                break;
            p[m - 2] = p[m - 1];
            m--;
            total--;
        }
    }
    /* The seam where the last point meets the first: trim from both ends until it turns. */
    for (int changed = 1; changed && m - start >= 3;) {
        changed = 0;
        int t = turn(p[m - 2], p[m - 1], p[start], nearly);
        if (t == TURN_SPIKE)
            return C2D_ERR_NOT_CONVEX;
        if (t == TURN_STRAIGHT || (t == TURN_NEARLY && m - start > 3)) {
            m--;
            changed = 1;
            continue;
        }
        t = turn(p[m - 1], p[start], p[start + 1], nearly);
        if (t == TURN_SPIKE)
            return C2D_ERR_NOT_CONVEX;
        if (t == TURN_STRAIGHT || (t == TURN_NEARLY && m - start > 3)) {
            start++;
            changed = 1;
        }
    }
    memmove(p, p + start, (size_t)(m - start) * sizeof(c2d_vec2));
    *n = m - start;
    return C2D_OK;
}

static int compare_points(const void *a, const void *b)
{
    const c2d_vec2 *p = (const c2d_vec2 *)a, *q = (const c2d_vec2 *)b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    return 0;
}

/* Andrew's monotone chain into out (capacity n + 1); returns the hull size, counter-clockwise,
 * with collinear and repeated points removed (exact signs, so a hull of points a hair off a line keeps
 * them all, and the chain is strictly convex by the same test c2d_convex_points then applies). */
static int monotone_chain(c2d_vec2 *sorted, int n, c2d_vec2 *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && c2d_orient(out[k - 2], out[k - 1], sorted[i]) <= 0)
            k--;
        out[k++] = sorted[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; i--) {
        while (k >= lower && c2d_orient(out[k - 2], out[k - 1], sorted[i]) <= 0)
            k--;
        out[k++] = sorted[i];
    }
    return k - 1; /* the last point repeats the first */
}

c2d_status c2d_convex_points(const c2d_vec2 *points, int n, int hull, c2d_vec2 *out, int *out_n)
{
    int m;
    if (hull) {
        c2d_vec2 *sorted = (c2d_vec2 *)malloc((size_t)n * sizeof(c2d_vec2));
        c2d_vec2 *chain = (c2d_vec2 *)malloc(((size_t)n + 1) * sizeof(c2d_vec2));
        if (!sorted || !chain) {
            free(sorted);
            free(chain);
            return C2D_ERR_NO_MEMORY;
        }
        memcpy(sorted, points, (size_t)n * sizeof(c2d_vec2));
        qsort(sorted, (size_t)n, sizeof(c2d_vec2), compare_points);
        m = monotone_chain(sorted, n, chain);
        memcpy(out, chain, (size_t)(m > 0 ? m : 0) * sizeof(c2d_vec2));
        free(sorted);
        free(chain);
    } else {
        memcpy(out, points, (size_t)n * sizeof(c2d_vec2));
        m = n;
    }
    m = drop_duplicates(out, m);
    if (m < 3)
        return C2D_ERR_DEGENERATE;

    /* All on one line: out[1] differs from out[0], so every point is on their line. Collinear points
     * only ever go straight on or double back, never turn, so this is degenerate, not a bow tie. */
    int first = 2;
    while (first < m && c2d_orient(out[0], out[1], out[first]) == 0)
        first++;
    if (first == m)
        return C2D_ERR_DEGENERATE;
    /* The winding is that of the first vertex that turns: in a convex polygon every vertex turns the
     * same way, and a polygon turning both ways is refused below whichever way it is read. */
    int dir = 0;
    for (int i = 0; i < m && dir != TURN_LEFT && dir != TURN_RIGHT; i++)
        dir = turn(out[(i + m - 1) % m], out[i], out[(i + 1) % m], 0);
    if (dir == TURN_RIGHT) {
        for (int i = 0, j = m - 1; i < j; i++, j--) {
            c2d_vec2 t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
    }
    /* Exactly straight vertices first, then nearly straight ones: a point merged into an edge may not
     * take the place of an exactly straight one. Points that are not all on one line keep three. */
    c2d_status st = drop_straight(out, &m, 0);
    if (st == C2D_OK)
        st = drop_straight(out, &m, 1);
    if (st != C2D_OK)
        return st;
    if (m < 3)
        return C2D_ERR_NOT_CONVEX; /* only an outline that doubles back over itself loses them */

    /* Convex: every turn is to the left, and the boundary winds exactly once (a pentagram turns
     * left at every vertex but winds twice). The turns, each strictly between 0 and pi, sum to exactly
     * 2 pi times the winding number, so the sum is 2 pi or at least 4 pi, never near the 3 pi it is
     * compared with. atan2 is libm's and rounds differently from one C library to another, but by
     * ulps: even C2D_MAX_POLYGON_POINTS of them, summed, stay within 1e-9 of the exact sum, so every
     * platform accepts and rejects the same polygons (everything else here is exact signs, + - * and
     * sqrt). The turn is known to be to the left, so its sine is taken as |cross|: at a vertex sharper
     * than rounding (a sliver's tip), the rounded cross product may be 0 or negative, and atan2 would
     * then give -pi for a turn of almost +pi. */
    double winding = 0;
    for (int i = 0; i < m; i++) {
        c2d_vec2 prev = out[(i + m - 1) % m], cur = out[i], next = out[(i + 1) % m];
        if (turn(prev, cur, next, 0) != TURN_LEFT)
            return C2D_ERR_NOT_CONVEX;
        c2d_vec2 e1 = v2_sub(cur, prev), e2 = v2_sub(next, cur);
        winding += atan2(fabs(v2_cross(e1, e2)), v2_dot(e1, e2));
    }
    if (winding > 3.0 * 3.14159265358979323846)
        return C2D_ERR_NOT_CONVEX;
    *out_n = m;
    return C2D_OK;
}
