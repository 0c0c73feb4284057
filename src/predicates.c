/* predicates.c - exact signs of the orientation determinants that ray and segment answers rest on.
 *
 * Whether a ray passes left of, right of or exactly through a segment's end point is a sign of a 2x2
 * determinant of coordinate differences. Evaluated in doubles, that sign is noise whenever the ray
 * passes within rounding of the point, and a wrong sign turns a hit at the end point into a miss, a
 * miss into a hit, or a crossing into a "collinear" case. These functions return the sign of the exact
 * determinant of the double inputs as given:
 *  - a fast filter first: the double result with Shewchuk's forward error bound for this expression
 *    ("Adaptive precision floating-point arithmetic and fast robust geometric predicates", 1997,
 *    ccwerrboundA = (3 + 16 eps) eps); a result larger than the bound has the exact sign;
 *  - otherwise the exact value as a floating-point expansion: each coordinate difference is split
 *    into its rounded value and its exact rounding error (two_diff), every product of two such parts
 *    into two doubles (Dekker's two_product), and the terms are summed without error into a
 *    non-overlapping expansion (grow_expansion), whose largest component has the sign of the sum.
 * Expansions are exact only while no partial product underflows, so the slow path first scales the
 * points (and, separately, a direction) by a power of two, which changes no sign and rounds nothing,
 * to put the largest coordinate near 2^400. The answer is then exact for every input whose nonzero
 * coordinates lie within a factor of about 2^600 (1e180) of its largest one; mixing 1e15 with
 * 1e-300 in one call can lose a sign that cancels below 1e-300. This needs double arithmetic without
 * extended precision (SSE2 on x86), which the check below enforces at compile time.
 * c2d_cross_scaled builds the same expansion to give the determinant's value to a few ulps, where its
 * size matters (the area of a sliver, which weighs a polygon's centroid) and rounding cancels it.
 * Layer 1, numbers.
 */
#include "predicates.h"

#include <float.h>
#include <math.h>

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != -1
#error "collide2d needs plain double arithmetic (FLT_EVAL_METHOD 0): on 32-bit x86 build with -msse2 -mfpmath=sse"
#endif

/* eps is half an ulp of 1: 2^-53. */
#define C2D_EPS (DBL_EPSILON * 0.5)
#define C2D_CCW_BOUND ((3.0 + 16.0 * C2D_EPS) * C2D_EPS)
/* Below this the filter's own terms may have lost bits to underflow. */
#define C2D_FILTER_FLOOR 0x1p-900

/* x + y = a + b exactly, x the rounded sum. */
static void two_sum(double a, double b, double *x, double *y)
{
    double s = a + b, bv = s - a, av = s - bv;
    *x = s;
    *y = (a - av) + (b - bv);
}

/* x + y = a - b exactly. */
static void two_diff(double a, double b, double *x, double *y)
{
    double s = a - b, bv = a - s, av = s + bv;
    *x = s;
    *y = (a - av) + (bv - b);
}

/* hi + lo = a, each with at most 26 significant bits (Veltkamp's split). */
static void split(double a, double *hi, double *lo)
{
    double c = 134217729.0 * a; /* 2^27 + 1 */
    double big = c - a;
    *hi = c - big;
    *lo = a - *hi;
}

/* x + y = a * b exactly (Dekker), when nothing underflows or overflows. */
static void two_product(double a, double b, double *x, double *y)
{
    double p = a * b, ahi, alo, bhi, blo;
    split(a, &ahi, &alo);
    split(b, &bhi, &blo);
    double err = p - ahi * bhi;
    err -= alo * bhi;
    err -= ahi * blo;
    *x = p;
    *y = alo * blo - err;
}

/* Adds b to the expansion e[0..n) (non-overlapping, increasing magnitude), dropping zeros; returns the
 * new length. e must have room for n + 1 components. */
static int grow(double *e, int n, double b)
{
    double q = b;
    int m = 0;
    for (int i = 0; i < n; i++) {
        double sum, err;
        two_sum(q, e[i], &sum, &err);
        q = sum;
        if (err != 0)
            e[m++] = err;
    }
    if (q != 0 || m == 0)
        e[m++] = q;
    return m;
}

/* Adds the exact product a * b (sign s, +1 or -1) to the expansion. */
static int grow_product(double *e, int n, double a, double b, double s)
{
    double x, y;
    two_product(a, b, &x, &y);
    n = grow(e, n, s * y);
    return grow(e, n, s * x);
}

static int sign_of(double x)
{
    return (x > 0) - (x < 0);
}

/* The power of two that brings the largest of the magnitudes to about 2^400, as an exponent: applied
 * with ldexp to each value (a factor 2^k itself would overflow when the largest is subnormal). */
static int scale_for(double m)
{
    int e;
    if (!(m > 0) || !isfinite(m))
        return 0;
    frexp(m, &e);
    return 400 - e;
}

/* Sign of ux * vy - uy * vx where each factor is a two-term expansion (hi, lo). */
static int exact_cross(const double u[2][2], const double v[2][2])
{
    double e[17];
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            n = grow_product(e, n, u[0][i], v[1][j], 1.0);
            n = grow_product(e, n, u[1][i], v[0][j], -1.0);
        }
    return sign_of(e[n - 1]);
}

int c2d_orient(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    double l = (b.x - a.x) * (c.y - a.y), r = (b.y - a.y) * (c.x - a.x), det = l - r;
    double bound = C2D_CCW_BOUND * (fabs(l) + fabs(r));
    if (fabs(det) > bound && bound > C2D_FILTER_FLOOR)
        return sign_of(det);
    int k = scale_for(fmax(fmax(fmax(fabs(a.x), fabs(a.y)), fmax(fabs(b.x), fabs(b.y))), fmax(fabs(c.x), fabs(c.y))));
    double u[2][2], v[2][2];
    two_diff(ldexp(b.x, k), ldexp(a.x, k), &u[0][0], &u[0][1]);
    two_diff(ldexp(b.y, k), ldexp(a.y, k), &u[1][0], &u[1][1]);
    two_diff(ldexp(c.x, k), ldexp(a.x, k), &v[0][0], &v[0][1]);
    two_diff(ldexp(c.y, k), ldexp(a.y, k), &v[1][0], &v[1][1]);
    return exact_cross(u, v);
}

int c2d_orient_dir(c2d_vec2 o, c2d_vec2 d, c2d_vec2 p)
{
    double l = d.x * (p.y - o.y), r = d.y * (p.x - o.x), det = l - r;
    double bound = C2D_CCW_BOUND * (fabs(l) + fabs(r));
    if (fabs(det) > bound && bound > C2D_FILTER_FLOOR)
        return sign_of(det);
    int kd = scale_for(fmax(fabs(d.x), fabs(d.y)));
    int kp = scale_for(fmax(fmax(fabs(o.x), fabs(o.y)), fmax(fabs(p.x), fabs(p.y))));
    double u[2][2] = {{ldexp(d.x, kd), 0.0}, {ldexp(d.y, kd), 0.0}}, v[2][2];
    two_diff(ldexp(p.x, kp), ldexp(o.x, kp), &v[0][0], &v[0][1]);
    two_diff(ldexp(p.y, kp), ldexp(o.y, kp), &v[1][0], &v[1][1]);
    return exact_cross(u, v);
}

double c2d_cross_scaled(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c, int k)
{
    double u[2][2], v[2][2], e[17];
    two_diff(b.x, a.x, &u[0][0], &u[0][1]);
    two_diff(b.y, a.y, &u[1][0], &u[1][1]);
    two_diff(c.x, a.x, &v[0][0], &v[0][1]);
    two_diff(c.y, a.y, &v[1][0], &v[1][1]);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            u[i][j] = ldexp(u[i][j], k);
            v[i][j] = ldexp(v[i][j], k);
        }
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            n = grow_product(e, n, u[0][i], v[1][j], 1.0);
            n = grow_product(e, n, u[1][i], v[0][j], -1.0);
        }
    /* The components do not overlap and grow in magnitude: summed from the smallest, the total is
     * within an ulp or so of the exact value, and has its sign. */
    double s = 0;
    for (int i = 0; i < n; i++)
        s += e[i];
    return s;
}
