/* exact.h - an exact oracle for the predicates ray and contact answers rest on, in rational arithmetic
 * (GMP's mpq_t, which holds every double exactly). Nothing here shares code or method with the library's
 * own predicates (src/predicates.c uses floating-point expansions): a bug in one cannot hide behind the
 * same bug in the other.
 *
 * The geometry judged is the library's own placed geometry (c2d_shape_get_vertices), since rounding a
 * shape into place is not an error of the query that reads it: the oracle says what the exact answer is
 * for the shape exactly as the library holds it. Compiles as C99 and C++.
 */
#ifndef C2D_EXACT_H
#define C2D_EXACT_H

#include "collide2d.h"

#include <gmp.h>
#include <math.h>

/* An exact point or vector. */
typedef struct ex_vec {
    mpq_t x, y;
} ex_vec;

static inline void ex_init(ex_vec *v, c2d_vec2 p)
{
    mpq_init(v->x);
    mpq_init(v->y);
    mpq_set_d(v->x, p.x);
    mpq_set_d(v->y, p.y);
}

static inline void ex_clear(ex_vec *v)
{
    mpq_clear(v->x);
    mpq_clear(v->y);
}

/* out = (ux * vy - uy * vx) for u = b - a, v = c - a (exact cross of differences). */
static inline void ex_cross3(mpq_t out, const ex_vec *a, const ex_vec *b, const ex_vec *c)
{
    mpq_t ux, uy, vx, vy, t;
    mpq_inits(ux, uy, vx, vy, t, NULL);
    mpq_sub(ux, b->x, a->x);
    mpq_sub(uy, b->y, a->y);
    mpq_sub(vx, c->x, a->x);
    mpq_sub(vy, c->y, a->y);
    mpq_mul(out, ux, vy);
    mpq_mul(t, uy, vx);
    mpq_sub(out, out, t);
    mpq_clears(ux, uy, vx, vy, t, NULL);
}

/* out = d x (p - o). */
static inline void ex_cross_dir(mpq_t out, const ex_vec *o, const ex_vec *d, const ex_vec *p)
{
    mpq_t px, py, t;
    mpq_inits(px, py, t, NULL);
    mpq_sub(px, p->x, o->x);
    mpq_sub(py, p->y, o->y);
    mpq_mul(out, d->x, py);
    mpq_mul(t, d->y, px);
    mpq_sub(out, out, t);
    mpq_clears(px, py, t, NULL);
}

/* out = (p - o) . d */
static inline void ex_dot_dir(mpq_t out, const ex_vec *o, const ex_vec *d, const ex_vec *p)
{
    mpq_t px, py, t;
    mpq_inits(px, py, t, NULL);
    mpq_sub(px, p->x, o->x);
    mpq_sub(py, p->y, o->y);
    mpq_mul(out, d->x, px);
    mpq_mul(t, d->y, py);
    mpq_add(out, out, t);
    mpq_clears(px, py, t, NULL);
}

/* Sign of (b - a) x (c - a). The double evaluation answers when it clears a generous bound on its
 * rounding (four times the classic 3.3e-16 relative bound, and no risk of underflow); otherwise the
 * rationals decide. */
static inline int ex_orient(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    double dl = (b.x - a.x) * (c.y - a.y), dr = (b.y - a.y) * (c.x - a.x), m = fabs(dl) + fabs(dr);
    if (m > 1e-280 && fabs(dl - dr) > 1.4e-15 * m)
        return dl > dr ? 1 : -1;
    if ((a.x == b.x && a.y == b.y) || (a.x == c.x && a.y == c.y) || (b.x == c.x && b.y == c.y))
        return 0; /* two of the points coincide */
    ex_vec ea, eb, ec;
    mpq_t r;
    ex_init(&ea, a);
    ex_init(&eb, b);
    ex_init(&ec, c);
    mpq_init(r);
    ex_cross3(r, &ea, &eb, &ec);
    int s = mpq_sgn(r);
    mpq_clear(r);
    ex_clear(&ea);
    ex_clear(&eb);
    ex_clear(&ec);
    return s;
}

/* Whether p lies exactly on the closed segment a-b. */
static inline int ex_on_segment(c2d_vec2 p, c2d_vec2 a, c2d_vec2 b)
{
    return ex_orient(a, b, p) == 0 && p.x >= fmin(a.x, b.x) && p.x <= fmax(a.x, b.x) && p.y >= fmin(a.y, b.y) &&
           p.y <= fmax(a.y, b.y);
}

/* Whether the closed segments a-b and c-d share a point (a == b or c == d allowed: a point). */
static inline int ex_segments_meet(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c, c2d_vec2 d)
{
    int o1 = ex_orient(a, b, c), o2 = ex_orient(a, b, d), o3 = ex_orient(c, d, a), o4 = ex_orient(c, d, b);
    if (o1 * o2 < 0 && o3 * o4 < 0)
        return 1;
    /* Touching or collinear: some end lies on the other segment (a point is its own segment). */
    return (o1 == 0 && ex_on_segment(c, a, b)) || (o2 == 0 && ex_on_segment(d, a, b)) ||
           (o3 == 0 && ex_on_segment(a, c, d)) || (o4 == 0 && ex_on_segment(b, c, d));
}

/* Whether p lies in the closed convex polygon v[0..n) (counter-clockwise, n >= 3). */
static inline int ex_in_polygon(const c2d_vec2 *v, int n, c2d_vec2 p)
{
    for (int i = 0; i < n; i++)
        if (ex_orient(v[i], v[(i + 1) % n], p) < 0)
            return 0;
    return 1;
}

/* Whether two cores (1 point, 2 segment ends, or n >= 3 polygon vertices) share a point. */
static inline int ex_cores_meet(const c2d_vec2 *va, int na, const c2d_vec2 *vb, int nb)
{
    if (na >= 3 && ex_in_polygon(va, na, vb[0]))
        return 1;
    if (nb >= 3 && ex_in_polygon(vb, nb, va[0]))
        return 1;
    int ea = na >= 3 ? na : 1, eb = nb >= 3 ? nb : 1;
    for (int i = 0; i < ea; i++)
        for (int j = 0; j < eb; j++)
            if (ex_segments_meet(va[i], va[na == 1 ? 0 : (i + 1) % na], vb[j], vb[nb == 1 ? 0 : (j + 1) % nb]))
                return 1;
    return 0;
}

/* What the exact ray o + t d, t >= 0, does against the closed segment a-b. */
enum { EX_MISS = 0, EX_CROSS, EX_END_A, EX_END_B, EX_ORIGIN, EX_COLLINEAR };

/* The first parameter t >= 0 at which the ray meets the segment, as a rational in t_out (left unset on
 * a miss), and how: EX_MISS, EX_CROSS (through the inside of the segment), EX_END_A / EX_END_B
 * (exactly through that end, not along the segment), EX_ORIGIN (the origin lies on the segment) or
 * EX_COLLINEAR (along the segment's line, meeting it at the end reported in *end: 0 for a, 1 for b).
 * t_out must be initialised. */
static inline int ex_ray_segment(c2d_vec2 o, c2d_vec2 d, c2d_vec2 a, c2d_vec2 b, mpq_t t_out, int *end)
{
    ex_vec eo, ed, ea, eb;
    mpq_t fa, fb, num, den, da, db;
    ex_init(&eo, o);
    ex_init(&ed, d);
    ex_init(&ea, a);
    ex_init(&eb, b);
    mpq_inits(fa, fb, num, den, da, db, NULL);
    ex_cross_dir(fa, &eo, &ed, &ea);
    ex_cross_dir(fb, &eo, &ed, &eb);
    int sa = mpq_sgn(fa), sb = mpq_sgn(fb), how = EX_MISS;
    *end = -1;
    /* |d|^2, for turning a dot product along d into a parameter. */
    mpq_t dd, t2;
    mpq_inits(dd, t2, NULL);
    mpq_mul(dd, ed.x, ed.x);
    mpq_mul(t2, ed.y, ed.y);
    mpq_add(dd, dd, t2);
    if (sa == 0 && sb == 0) {
        /* Collinear: parameters of the ends along the ray. */
        ex_dot_dir(da, &eo, &ed, &ea);
        ex_dot_dir(db, &eo, &ed, &eb);
        int pa = mpq_sgn(da), pb = mpq_sgn(db);
        if (pa < 0 && pb < 0) {
            how = EX_MISS;
        } else if ((pa < 0) != (pb < 0) || pa == 0 || pb == 0) {
            how = EX_ORIGIN;
            mpq_set_ui(t_out, 0, 1);
        } else {
            int first_a = mpq_cmp(da, db) <= 0;
            how = EX_COLLINEAR;
            *end = first_a ? 0 : 1;
            mpq_div(t_out, first_a ? da : db, dd);
        }
    } else if (sa != 0 && sa == sb) {
        how = EX_MISS;
    } else {
        /* t = ((a - o) x (b - a)) / (d x (b - a)); d x (b - a) = fb - fa. */
        ex_cross3(num, &eo, &ea, &eb); /* (a - o) x (b - o) = (a - o) x (b - a) */
        mpq_sub(den, fb, fa);
        mpq_div(t_out, num, den);
        if (mpq_sgn(t_out) < 0)
            how = EX_MISS;
        else if (mpq_sgn(t_out) == 0)
            how = EX_ORIGIN;
        else
            how = sa == 0 ? EX_END_A : (sb == 0 ? EX_END_B : EX_CROSS);
    }
    mpq_clears(fa, fb, num, den, da, db, dd, t2, NULL);
    ex_clear(&eo);
    ex_clear(&ed);
    ex_clear(&ea);
    ex_clear(&eb);
    return how;
}

/* Compares a rational with a double: <0, 0 or >0 as q is below, at or above x. */
static inline int ex_cmp_d(const mpq_t q, double x)
{
    mpq_t y;
    mpq_init(y);
    mpq_set_d(y, x);
    int c = mpq_cmp(q, y);
    mpq_clear(y);
    return c;
}

/* |x - y| for a double x and a rational y, as a double (rounded once). */
static inline double ex_abs_diff(double x, const mpq_t y)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_d(q, x);
    mpq_sub(q, q, y);
    mpq_abs(q, q);
    double r = mpq_get_d(q);
    mpq_clear(q);
    return r;
}

#endif
