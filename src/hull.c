/* hull.c - turning user point lists into strictly convex counter-clockwise polygons: convexity
 * validation for ordered input, and the convex hull (Andrew's monotone chain) for point clouds.
 *
 * Tolerances are relative to the size of the input, so the same polygon is accepted or rejected
 * whatever its scale or distance from the origin. */
#include "shape.h"

#include <stdlib.h>
#include <string.h>

/* Relative tolerance below which two points coincide or three points are collinear. */
#define C2D_REL_EPS 1e-12

static double extent_of(const c2d_vec2 *p, int n)
{
    double lox = p[0].x, hix = p[0].x, loy = p[0].y, hiy = p[0].y;
    for (int i = 1; i < n; i++) {
        lox = fmin(lox, p[i].x);
        hix = fmax(hix, p[i].x);
        loy = fmin(loy, p[i].y);
        hiy = fmax(hiy, p[i].y);
    }
    return fmax(hix - lox, hiy - loy);
}

/* Drops consecutive (cyclically) coincident points in place; returns the new count. */
static int drop_duplicates(c2d_vec2 *p, int n, double tol)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && v2_len(v2_sub(p[i], p[m - 1])) <= tol)
            continue;
        p[m++] = p[i];
    }
    while (m > 1 && v2_len(v2_sub(p[m - 1], p[0])) <= tol)
        m--;
    return m;
}

/* Orientation of the turn prev -> cur -> next: +1 left, -1 right, 0 straight (within tolerance),
 * 2 for a straight reversal (a spike). */
static int turn(c2d_vec2 prev, c2d_vec2 cur, c2d_vec2 next)
{
    c2d_vec2 e1 = v2_sub(cur, prev), e2 = v2_sub(next, cur);
    double c = v2_cross(e1, e2);
    if (fabs(c) <= C2D_REL_EPS * v2_len(e1) * v2_len(e2))
        return v2_dot(e1, e2) > 0 ? 0 : 2;
    return c > 0 ? 1 : -1;
}

/* Removes vertices in the middle of straight edges in one stack pass (O(n), so long straight runs
 * of points cost nothing extra); fails on spikes, where the boundary doubles back on itself. */
static c2d_status drop_collinear(c2d_vec2 *p, int *n)
{
    int m = 0, start = 0;
    for (int i = 0; i < *n; i++) {
        p[m++] = p[i];
        while (m >= 3) {
            int t = turn(p[m - 3], p[m - 2], p[m - 1]);
            if (t == 2)
                return C2D_ERR_NOT_CONVEX;
            if (t != 0)
                break;
            p[m - 2] = p[m - 1];
            m--;
        }
    }
    /* The seam where the last point meets the first: trim from both ends until it turns. */
    for (int changed = 1; changed && m - start >= 3;) {
        changed = 0;
        int t = turn(p[m - 2], p[m - 1], p[start]);
        if (t == 2)
            return C2D_ERR_NOT_CONVEX;
        if (t == 0) {
            m--;
            changed = 1;
            continue;
        }
        t = turn(p[m - 1], p[start], p[start + 1]);
        if (t == 2)
            return C2D_ERR_NOT_CONVEX;
        if (t == 0) {
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
 * with exactly collinear points removed. */
static int monotone_chain(c2d_vec2 *sorted, int n, c2d_vec2 *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && v2_cross(v2_sub(out[k - 1], out[k - 2]), v2_sub(sorted[i], out[k - 2])) <= 0)
            k--;
        out[k++] = sorted[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; i--) {
        while (k >= lower && v2_cross(v2_sub(out[k - 1], out[k - 2]), v2_sub(sorted[i], out[k - 2])) <= 0)
            k--;
        out[k++] = sorted[i];
    }
    return k - 1; /* the last point repeats the first */
}

c2d_status c2d_convex_points(const c2d_vec2 *points, int n, int hull, c2d_vec2 *out, int *out_n)
{
    double size = extent_of(points, n);
    if (!(size > 0))
        return C2D_ERR_DEGENERATE;
    double tol = C2D_REL_EPS * size;
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
    m = drop_duplicates(out, m, tol);
    if (m < 3)
        return C2D_ERR_DEGENERATE;

    /* Winding from the signed area; a near-zero area means the points are (nearly) collinear. */
    double area2 = 0;
    for (int i = 1; i + 1 < m; i++)
        area2 += v2_cross(v2_sub(out[i], out[0]), v2_sub(out[i + 1], out[0]));
    if (fabs(area2) <= C2D_REL_EPS * size * size) {
        /* No area: collinear points only ever go straight or double back; a real turn means
         * the outline crosses itself (a bow tie), which is non-convex rather than degenerate. */
        for (int i = 0; i < m; i++) {
            int t = turn(out[(i + m - 1) % m], out[i], out[(i + 1) % m]);
            if (t == 1 || t == -1)
                return C2D_ERR_NOT_CONVEX;
        }
        return C2D_ERR_DEGENERATE;
    }
    if (area2 < 0) {
        for (int i = 0, j = m - 1; i < j; i++, j--) {
            c2d_vec2 t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
    }
    c2d_status st = drop_collinear(out, &m);
    if (st != C2D_OK)
        return st;
    if (m < 3)
        return C2D_ERR_DEGENERATE;

    /* Convex: every turn is to the left, and the boundary winds exactly once (a pentagram turns
     * left at every vertex but winds twice). The turns, each strictly between 0 and pi, sum to exactly
     * 2 pi times the winding number, so the sum is 2 pi or at least 4 pi, never near the 3 pi it is
     * compared with. atan2 is libm's and rounds differently from one C library to another, but by
     * ulps: even C2D_MAX_POLYGON_POINTS of them, summed, stay within 1e-9 of the exact sum, so every
     * platform accepts and rejects the same polygons (everything else here is + - * and sqrt). */
    double winding = 0;
    for (int i = 0; i < m; i++) {
        c2d_vec2 prev = out[(i + m - 1) % m], cur = out[i], next = out[(i + 1) % m];
        if (turn(prev, cur, next) != 1)
            return C2D_ERR_NOT_CONVEX;
        c2d_vec2 e1 = v2_sub(cur, prev), e2 = v2_sub(next, cur);
        winding += atan2(v2_cross(e1, e2), v2_dot(e1, e2));
    }
    if (winding > 3.0 * 3.14159265358979323846)
        return C2D_ERR_NOT_CONVEX;
    *out_n = m;
    return C2D_OK;
}
