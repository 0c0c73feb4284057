/* fz_oracle.c - the harness's own exact geometry, independent of src/predicates.c: the orientation of
 * three doubles decided exactly (big integers where a floating-point filter cannot), and the ring
 * predicates built on it (on a segment, segments meeting, parity, duplicates, collinear rings, simple
 * rings) that predict c2d_concave_new's and c2d_chain_new's statuses. */
#include "fz.h"

/* ---- exact orientation: the harness's own oracle (not src/predicates.c) ----------------------- */

/* Every double is an integer multiple of 2^-1074, so the orientation determinant of three points is
 * an integer once all six coordinates are scaled to a common power of two: computed here with plain
 * schoolbook big integers (sign and magnitude, 32-bit limbs). Products of two differences need at
 * most about 2 * (53 + 2098) bits, which FZ_BIG limbs hold. Only the rare cases a floating-point
 * filter cannot certify come here. */
#define FZ_BIG 140

typedef struct fz_big {
    uint32_t d[FZ_BIG];
    int n;   /* limbs in use (d[n - 1] != 0, or n == 0 for zero) */
    int neg; /* sign of a non-zero value */
} fz_big;

static void fz_big_norm(fz_big *b)
{
    while (b->n > 0 && b->d[b->n - 1] == 0)
        b->n--;
    if (b->n == 0)
        b->neg = 0;
}

/* x as the integer x * 2^-e0 (e0 at most the exponent of x's lowest bit). */
static void fz_big_set(fz_big *b, double x, int e0)
{
    memset(b, 0, sizeof *b);
    if (x == 0)
        return;
    int e;
    double f = frexp(fabs(x), &e);
    uint64_t m = (uint64_t)ldexp(f, 53); /* exact: x has at most 53 significant bits */
    int shift = e - 53 - e0, limb = shift / 32, bit = shift % 32;
    uint64_t lo = m << bit, hi = bit ? m >> (64 - bit) : 0;
    b->d[limb] = (uint32_t)lo;
    b->d[limb + 1] = (uint32_t)(lo >> 32);
    b->d[limb + 2] = (uint32_t)hi;
    b->n = limb + 3;
    b->neg = x < 0;
    fz_big_norm(b);
}

static int fz_mag_cmp(const fz_big *a, const fz_big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

/* r = a + b (signed); r may not alias a or b. */
static void fz_big_add(fz_big *r, const fz_big *a, const fz_big *b)
{
    memset(r, 0, sizeof *r);
    if (a->neg == b->neg) {
        uint64_t carry = 0;
        int n = a->n > b->n ? a->n : b->n;
        for (int i = 0; i < n; i++) {
            uint64_t s = carry + (i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0);
            r->d[i] = (uint32_t)s;
            carry = s >> 32;
        }
        r->d[n] = (uint32_t)carry;
        r->n = n + 1;
        r->neg = a->neg;
    } else {
        const fz_big *big = a, *small = b;
        if (fz_mag_cmp(a, b) < 0) {
            big = b;
            small = a;
        }
        int64_t borrow = 0;
        for (int i = 0; i < big->n; i++) {
            int64_t s = (int64_t)big->d[i] - (i < small->n ? small->d[i] : 0) - borrow;
            borrow = s < 0;
            r->d[i] = (uint32_t)(s + (borrow ? ((int64_t)1 << 32) : 0));
        }
        r->n = big->n;
        r->neg = big->neg;
    }
    fz_big_norm(r);
}

static void fz_big_mul(fz_big *r, const fz_big *a, const fz_big *b)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < a->n; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < b->n; j++) {
            uint64_t t = (uint64_t)a->d[i] * b->d[j] + r->d[i + j] + carry;
            r->d[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        r->d[i + b->n] = (uint32_t)carry;
    }
    r->n = a->n + b->n;
    r->neg = a->neg != b->neg;
    fz_big_norm(r);
}

static int fz_orient_exact(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    double v[6] = {a.x, a.y, b.x, b.y, c.x, c.y};
    int e0 = INT_MAX;
    for (int i = 0; i < 6; i++)
        if (v[i] != 0) {
            int e;
            frexp(v[i], &e);
            if (e - 53 < e0)
                e0 = e - 53;
        }
    if (e0 == INT_MAX)
        return 0;
    static fz_big x[6], dx1, dy1, dx2, dy2, p, q, r; /* large: kept off the stack */
    for (int i = 0; i < 6; i++)
        fz_big_set(&x[i], v[i], e0);
    x[0].neg = !x[0].neg && x[0].n; /* -a.x */
    x[1].neg = !x[1].neg && x[1].n; /* -a.y */
    fz_big_add(&dx1, &x[2], &x[0]);
    fz_big_add(&dy1, &x[3], &x[1]);
    fz_big_add(&dx2, &x[4], &x[0]);
    fz_big_add(&dy2, &x[5], &x[1]);
    fz_big_mul(&p, &dx1, &dy2);
    fz_big_mul(&q, &dy1, &dx2);
    q.neg = !q.neg && q.n;
    fz_big_add(&r, &p, &q);
    return r.n == 0 ? 0 : r.neg ? -1 : 1;
}

/* The sign of (b - a) x (c - a), exactly, for finite points: a floating-point filter (Shewchuk's
 * bound, valid while no product underflows, hence the guard), else the big integers. */
int fz_orient(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    double l = (b.x - a.x) * (c.y - a.y), r = (b.y - a.y) * (c.x - a.x), det = l - r;
    double sum = fabs(l) + fabs(r);
    if (isfinite(sum) && sum > 1e-290 && fabs(det) > 3.3306690738754716e-16 * sum)
        return det > 0 ? 1 : -1;
    return fz_orient_exact(a, b, c);
}

int fz_veq(c2d_vec2 a, c2d_vec2 b)
{
    return a.x == b.x && a.y == b.y;
}

/* Whether the closed segments a-b and c-d share a point (exact). */
static int fz_on_segment(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    return fmin(a.x, b.x) <= c.x && c.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= c.y && c.y <= fmax(a.y, b.y);
}

static int fz_segments_meet(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c, c2d_vec2 d)
{
    if (fmax(a.x, b.x) < fmin(c.x, d.x) || fmax(c.x, d.x) < fmin(a.x, b.x) || fmax(a.y, b.y) < fmin(c.y, d.y) ||
        fmax(c.y, d.y) < fmin(a.y, b.y))
        return 0;
    int o1 = fz_orient(a, b, c), o2 = fz_orient(a, b, d), o3 = fz_orient(c, d, a), o4 = fz_orient(c, d, b);
    if (o1 * o2 > 0 || o3 * o4 > 0)
        return 0;
    if (o1 || o2 || o3 || o4)
        return 1;
    return fz_on_segment(a, b, c) || fz_on_segment(a, b, d) || fz_on_segment(c, d, a) || fz_on_segment(c, d, b);
}

/* For c collinear with a and b (a != b): whether c lies strictly between them. */
static int fz_strictly_between(c2d_vec2 a, c2d_vec2 c, c2d_vec2 b)
{
    if (a.x != b.x)
        return (a.x < c.x && c.x < b.x) || (b.x < c.x && c.x < a.x);
    return (a.y < c.y && c.y < b.y) || (b.y < c.y && c.y < a.y);
}

/* Even-odd count of q against a closed ring (a horizontal ray to the right, half-open rule), exact
 * for a q that is not on the ring. */
int fz_ring_parity(const c2d_vec2 *p, int n, c2d_vec2 q)
{
    int odd = 0;
    for (int i = 0; i < n; i++) {
        c2d_vec2 a = p[i], b = p[(i + 1) % n];
        if ((a.y > q.y) == (b.y > q.y))
            continue;
        if ((a.y < b.y ? fz_orient(a, b, q) : fz_orient(b, a, q)) > 0)
            odd ^= 1;
    }
    return odd;
}

/* A ring without consecutive repeats (the last point equal to the first dropped too): its count. */
int fz_ring_dedupe(const c2d_vec2 *in, int n, c2d_vec2 *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || !fz_veq(in[i], out[k - 1]))
            out[k++] = in[i];
    while (k > 1 && fz_veq(out[k - 1], out[0]))
        k--;
    return k;
}

/* Whether a deduplicated ring is degenerate: fewer than 3 distinct points, or all on one line. */
int fz_ring_degenerate(const c2d_vec2 *p, int k)
{
    if (k < 3)
        return 1;
    for (int i = 2; i < k; i++)
        if (fz_orient(p[0], p[1], p[i]) != 0)
            return 0;
    return 1;
}

/* Marks the middles of straight runs of a deduplicated, non-degenerate ring (mid[i] = 1), removing
 * them one at a time as the documentation describes; returns 0 when the ring doubles back along
 * itself (three consecutive points on a line, the middle one not between the others). */
int fz_ring_middles(const c2d_vec2 *p, int k, unsigned char *mid)
{
    int idx[64], m = k;
    for (int i = 0; i < k; i++) {
        idx[i] = i;
        mid[i] = 0;
    }
    for (int changed = 1; changed && m >= 3;) {
        changed = 0;
        for (int i = 0; i < m && m >= 3; i++) {
            c2d_vec2 a = p[idx[(i + m - 1) % m]], c = p[idx[i]], b = p[idx[(i + 1) % m]];
            if (fz_orient(a, c, b) != 0)
                continue;
            if (!fz_strictly_between(a, c, b))
                return 0;
            mid[idx[i]] = 1;
            for (int j = i; j + 1 < m; j++)
                idx[j] = idx[j + 1];
            m--;
            changed = 1;
            i--;
        }
    }
    return 1;
}

/* Whether a deduplicated, non-degenerate ring is simple: no doubling back, and no two edges that are
 * not neighbours share a point (O(k^2), every test exact). */
int fz_ring_simple(const c2d_vec2 *p, int k)
{
    unsigned char mid[64];
    if (!fz_ring_middles(p, k, mid))
        return 0;
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++) {
            int adjacent = j == i + 1 || (i == 0 && j == k - 1);
            if (adjacent)
                continue; /* neighbours share their point; overlaps were found above */
            if (fz_segments_meet(p[i], p[(i + 1) % k], p[j], p[(j + 1) % k]))
                return 0;
        }
    return 1;
}

/* Whether two rings share a point (every edge pair, exact). */
int fz_rings_meet(const c2d_vec2 *p, int n, const c2d_vec2 *q, int m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (fz_segments_meet(p[i], p[(i + 1) % n], q[j], q[(j + 1) % m]))
                return 1;
    return 0;
}

/* The nearest point of segment a-b to q, robust to tiny and huge segments. */
c2d_vec2 fz_seg_closest(c2d_vec2 a, c2d_vec2 b, c2d_vec2 q)
{
    c2d_vec2 e = fz_v(b.x - a.x, b.y - a.y);
    double s = fmax(fabs(e.x), fabs(e.y));
    if (!(s > 0))
        return a;
    c2d_vec2 u = fz_v(e.x / s, e.y / s), w = fz_v((q.x - a.x) / s, (q.y - a.y) / s);
    double t = (w.x * u.x + w.y * u.y) / (u.x * u.x + u.y * u.y);
    if (!isfinite(t))
        t = hypot(q.x - a.x, q.y - a.y) <= hypot(q.x - b.x, q.y - b.y) ? 0 : 1;
    if (t <= 0)
        return a;
    if (t >= 1)
        return b;
    return fz_v(a.x + t * e.x, a.y + t * e.y);
}
