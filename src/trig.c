/* trig.c - sine and cosine computed by the library itself, so that a turned shape has the same
 * coordinates to the last bit on every platform. The C library's sin and cos differ between platforms
 * (mingw-w64's differ from glibc's by an ulp for about 0.3% of angles in [-7, 7], by far more for large
 * angles), and games that replay or run in lockstep across platforms need identical answers.
 *
 * Determinism. Only IEEE-754 double operations that every conforming platform rounds the same way are
 * used on the path to the result: + - * /, comparisons, exact conversions between integers and doubles,
 * and 64-bit unsigned integer arithmetic (exact by definition). No libm call (fabs only clears a bit),
 * no long double, no fma. That holds only when
 *   - every double expression is evaluated in double (FLT_EVAL_METHOD == 0; the #error below refuses
 *     x87 builds: 32-bit x86 must build with -msse2 -mfpmath=sse), and
 *   - the compiler does not contract a * b + c into a fused multiply-add, which rounds once instead of
 *     twice. GCC contracts by default in its GNU modes (-ffp-contract=fast) but not with -std=c99, which
 *     every build of the library in the Makefile and mk/ passes (checked: gcc 12 -std=c99 -mfma emits
 *     separate vmulsd and vaddsd, -std=gnu99 emits vfmadd). Clang contracts within an expression even
 *     with -std=c99, so the Makefile's CSTD also says -ffp-contract=off, and this file switches
 *     contraction off itself for builds that bring their own flags (luarocks): the standard pragma,
 *     which clang honours, and GCC's optimize pragma, since GCC ignores the standard one. Clang's
 *     -ffp-contract=fast overrides both pragmas; -ffast-math is refused below. spec/c/test_trig.c
 *     pins the bits of its results at some 120,000 angles: a build that computes differently fails.
 *
 * Method. x = k pi/2 + r with |r| <= pi/4, r as a double-double rh + rl:
 *   - |x| < 2^-27: sin x = x and cos x = 1 correctly rounded; returned as is (this keeps -0.0).
 *   - |x| < pi/4: r = x (the next case's steps give exactly that; no separate branch).
 *   - |x| < 2^20: Cody-Waite. pi/2 = P1 + P2 + rest with P1 and P2 of 33 significant bits, so k * P1
 *     and k * P2 are exact for k < 2^20, x - k * P1 is exact (Sterbenz) and a two-sum subtracts
 *     k * P2 exactly; k * (rest rounded) leaves r known to 2^-97, 2^-71 relatively unless |r| < 2^-26.
 *     Those angles, near a multiple of pi/2, subtract the rest as P3 (33 bits, exactly) and P4: r is
 *     then known to 2^-130.
 *   - beyond (any finite double): Payne-Hanek. x = m 2^e with an integer m < 2^53; only the bits of
 *     2/pi from weight 2^-(e-1) on matter modulo 4, so a window of 192 of them times m, modulo 2^192,
 *     gives k mod 4 and the fraction r / (pi/2) to 2^-137 absolutely (integer arithmetic), which is
 *     then rounded to 106 bits and multiplied by pi/2 as a double-double.
 *   The nearest a double comes to a multiple of pi/2 is 4.7e-19 (6381956970095103 * 2^797), and 6.2e-19
 *   below 1e15 (45.553093477052), so r is known to 2^-68 relatively or better.
 * Then sin r and cos r come from polynomials of degree 13 and 14 (near-minimax: interpolation at
 * Chebyshev nodes, within 2^-55 relatively), evaluated in Estrin's scheme, with the tail rl taken to
 * first order and the leading terms (r, and 1 - r^2/2 with its exact rounding error) added last.
 * Below 2^-20, r - r^3/6 and 1 - r^2/2 serve. The error is half an ulp for the final rounding plus what
 * the polynomial, its terms and the reduction leave: faithful always (at most 0.774 ulp on the 21,408
 * reference angles of spec/c/trig_reference.h, hard cases of the reduction among them), correctly
 * rounded for about 97% of results; 0.92 ulp at worst on 24 million random angles below 1e15,
 * against long double and confirmed with 300-bit arithmetic. Correct rounding everywhere would take a table and exact sums,
 * which cost half again as much per call; a game places shapes at every frame, and determinism, not
 * the last half ulp, is what this file is for.
 * The constants between the GENERATED markers come from scripts/trig_tables.py, which computes them
 * from pi with exact integer arithmetic; `python3 scripts/trig_tables.py check-tables src/trig.c`
 * verifies them, and spec/c/test_trig.c measures the errors against its reference values.
 * Layer 1, numbers. */
#include "trig.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "trig.c needs FLT_EVAL_METHOD == 0 (double expressions evaluated in double): on 32-bit x86 build with -msse2 -mfpmath=sse"
#endif
#if FLT_RADIX != 2 || DBL_MANT_DIG != 53 || DBL_MAX_EXP != 1024
#error "trig.c needs IEEE-754 binary64 doubles"
#endif
#if defined(__FAST_MATH__)
#error "trig.c must not be built with -ffast-math: it reorders and fuses the arithmetic"
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off") /* GCC warns about, and ignores, the standard pragma */
#else
#pragma STDC FP_CONTRACT OFF
#endif

/* BEGIN GENERATED by scripts/trig_tables.py (python3 scripts/trig_tables.py write-tables src/trig.c) */
/* Generated constants: pi/2 in four parts for Cody-Waite (P1..P3 have at most 33 significant
 * bits, so k * Pn is exact for |k| < 2^20; |pi/2 - (P1 + P2 + P3 + P4)| < 2^-150), the rest
 * after P1 and P2 rounded (within 2^-118), pi/2 as a double-double, 2/pi rounded, and the
 * largest double not above pi/4. */
#define PIO2_1     0x1.921fb54400000p+0
#define PIO2_2     0x1.0b4611a600000p-34
#define PIO2_3     0x1.3198a2e000000p-69
#define PIO2_4     0x1.b839a252049c1p-104
#define PIO2_2T    0x1.3198a2e037073p-69
#define PIO2_HI    0x1.921fb54442d18p+0
#define PIO2_LO    0x1.1a62633145c07p-54
#define INV_PIO2   0x1.45f306dc9c883p-1
#define PIO4_BELOW 0x1.921fb54442d18p-1

/* Bits of 2/pi, 64 to a word, most significant first: word 0 holds the bits of weight 2^63 .. 2^0
 * (all zero), word i >= 1 those of weight 2^-(64i - 63) .. 2^-64i. */
static const uint64_t two_over_pi[20] = {
    UINT64_C(0x0000000000000000), UINT64_C(0xa2f9836e4e441529), UINT64_C(0xfc2757d1f534ddc0),
    UINT64_C(0xdb6295993c439041), UINT64_C(0xfe5163abdebbc561), UINT64_C(0xb7246e3a424dd2e0),
    UINT64_C(0x06492eea09d1921c), UINT64_C(0xfe1deb1cb129a73e), UINT64_C(0xe88235f52ebb4484),
    UINT64_C(0xe99c7026b45f7e41), UINT64_C(0x3991d639835339f4), UINT64_C(0x9c845f8bbdf9283b),
    UINT64_C(0x1ff897ffde05980f), UINT64_C(0xef2f118b5a0a6d1f), UINT64_C(0x6d367ecf27cb09b7),
    UINT64_C(0x4f463f669e5fea2d), UINT64_C(0x7527bac7ebe5f17b), UINT64_C(0x3d0739f78a5292ea),
    UINT64_C(0x6bfb5fb11f8d5d08), UINT64_C(0x56033046fc7b6bab),
};

/* Polynomials of the kernel: sin r = r + r^3 (S0 + S1 z + ... + S5 z^5) and cos r = 1 - z/2 +
 * z^2 (C0 + C1 z + ... + C5 z^5), z = r^2, |r| <= pi/4: interpolation at the Chebyshev nodes of
 * [0, (pi/4)^2], rounded to doubles; the rounded polynomials are within 2^-55 of sin and cos
 * relatively (scripts/trig_tables.py checks it at 2,000 points). */
#define S0         -0x1.5555555555555p-3
#define S1         0x1.1111111110bb2p-7
#define S2         -0x1.a01a019e83aaep-13
#define S3         0x1.71de37968a100p-19
#define S4         -0x1.ae600b02b6262p-26
#define S5         0x1.5e0b19f8b1451p-33
#define C0         0x1.5555555555555p-5
#define C1         -0x1.6c16c16c16967p-10
#define C2         0x1.a01a019f4eb01p-16
#define C3         -0x1.27e4fa17da09ep-22
#define C4         0x1.1eeb68e93b64cp-29
#define C5         -0x1.907da367a37cbp-37
/* END GENERATED */

/* s + e = a + b exactly, when |a| >= |b| or a = 0. */
static inline void fast_two_sum(double a, double b, double *s, double *e)
{
    double t = a + b;
    *e = b - (t - a);
    *s = t;
}

/* s + e = a + b exactly, for any a and b. */
static inline void two_sum(double a, double b, double *s, double *e)
{
    double t = a + b, bb = t - a;
    *e = (a - (t - bb)) + (b - bb);
    *s = t;
}

/* a = hi + lo with hi of at most 26 significant bits and lo of at most 26 (Veltkamp). */
static inline void split(double a, double *hi, double *lo)
{
    double t = 134217729.0 * a; /* 2^27 + 1 */
    double h = t - (t - a);
    *hi = h;
    *lo = a - h;
}

/* p + e = a * b exactly (Dekker), barring overflow and underflow. */
static void two_product(double a, double b, double *p, double *e)
{
    double ah, al, bh, bl;
    split(a, &ah, &al);
    split(b, &bh, &bl);
    *p = a * b;
    *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

/* 2^n for -1022 <= n <= 1023, exactly. */
static double pow2(int n)
{
    uint64_t bits = (uint64_t)(n + 1023) << 52;
    double r;
    memcpy(&r, &bits, sizeof r);
    return r;
}

/* hi * 2^64 + lo = a * b. */
static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* 2^-27 <= ax < 2^20: ax = k pi/2 + rh + rl, |rh + rl| <= pi/4 + 2^-30, |rl| <= 2 ulp(rh); returns k.
 * Below PIO4_BELOW, k is 0 (ax / (pi/2) rounds to at most 0.5, and the tie to even) and the steps
 * subtract zeros, leaving rh = ax and rl = +0 exactly. */
static int reduce_medium(double ax, double *rh, double *rl)
{
    /* k = ax / (pi/2) rounded to an integer (adding 1.5 * 2^52 leaves no bits below the units); it
     * may be off by one only where ax / (pi/2) is within 2^-31 of a half-integer, which leaves |r|
     * below pi/4 + 2^-30. */
    double kd = (ax * INV_PIO2 + 0x1.8p52) - 0x1.8p52;
    double t = ax - kd * PIO2_1; /* exact: kd * PIO2_1 is, and lies within a factor 2 of ax */
    double a, ae, b, be;
    two_sum(t, -(kd * PIO2_2), &a, &ae);
    /* The rest of pi/2 in one rounded part: k * PIO2_2T is within 2^-97 of k (pi/2 - P1 - P2), so
     * r is known to 2^-97, 2^-71 relatively unless r is within 2^-26 of zero. Then |a| >= |k PIO2_2T|
     * and the two-sum may be the fast one. This is the short path, for nearly every angle. */
    fast_two_sum(a, -(kd * PIO2_2T), &b, &be);
    if (fabs(b) < 0x1p-26) {
        /* Near a multiple of pi/2 (45.553093477052 is 6.2e-19 from one): P3 exactly and P4. */
        two_sum(a, -(kd * PIO2_3), &b, &be);
        be = (ae + be) - kd * PIO2_4;
        fast_two_sum(b, be, &b, &be);
        ae = 0;
    }
    *rh = b;
    *rl = ae + be;
    return (int)kd;
}

/* 2^20 <= ax <= DBL_MAX: ax = k pi/2 + rh + rl, |rh + rl| <= pi/4; returns k mod 4. */
static int reduce_large(double ax, double *rh, double *rl)
{
    uint64_t bits;
    memcpy(&bits, &ax, sizeof bits);
    int e = (int)(bits >> 52) - 1075; /* ax = m 2^e, -32 <= e <= 971 */
    uint64_t m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);

    /* ax * 2/pi modulo 4: the bits of 2/pi of weight 2^-(e-1) and above contribute multiples of 4, so
     * the window starts at the bit of weight 2^-(e-1), at offset e + 62 in the table (its word 0 holds
     * the weights 2^63 .. 2^0). With 192 bits, the bits left out weigh less than m 2^(e-(e-1)-192) <
     * 2^-137, and the window times m, modulo 2^192, is ax * 2/pi modulo 4 in units of 2^-190. */
    int o = e + 62, w = o >> 6, sh = o & 63;
    uint64_t w0 = two_over_pi[w], w1 = two_over_pi[w + 1], w2 = two_over_pi[w + 2];
    if (sh) {
        w0 = (w0 << sh) | (w1 >> (64 - sh));
        w1 = (w1 << sh) | (w2 >> (64 - sh));
        w2 = (w2 << sh) | (two_over_pi[w + 3] >> (64 - sh));
    }
    uint64_t h2, l2, h1, l1;
    mul_64x64(m, w2, &h2, &l2);
    mul_64x64(m, w1, &h1, &l1);
    uint64_t f0 = l2, f1 = h2 + l1;
    uint64_t f2 = h1 + m * w0 + (f1 < l1);

    /* The top two bits are k mod 4, the other 190 the fraction; at or above one half, the fraction
     * minus one: its magnitude 2^190 - f, the two's complement. */
    const uint64_t mask62 = (UINT64_C(1) << 62) - 1;
    int q = (int)(f2 >> 62), negative = 0;
    f2 &= mask62;
    if (f2 >> 61) {
        q++;
        negative = 1;
        f0 = ~f0 + 1;
        unsigned carry = f0 == 0;
        f1 = ~f1 + carry;
        carry = carry && f1 == 0;
        f2 = (~f2 + carry) & mask62;
    }

    /* Normalise (the leading one to bit 63 of f2) and keep 106 bits: f = F 2^-190 with F < 2^189,
     * and F >= 2^127 for every double (it is 2^-62 of a quarter turn or more). */
    int shift = 0;
    while (f2 == 0 && shift < 128) {
        f2 = f1;
        f1 = f0;
        f0 = 0;
        shift += 64;
    }
    if (f2 == 0) {
        *rh = *rl = 0;
        return q & 3;
    }
    int lz = 0;
    uint64_t t = f2;
    if (!(t >> 32)) { lz += 32; t <<= 32; }
    if (!(t >> 48)) { lz += 16; t <<= 16; }
    if (!(t >> 56)) { lz += 8; t <<= 8; }
    if (!(t >> 60)) { lz += 4; t <<= 4; }
    if (!(t >> 62)) { lz += 2; t <<= 2; }
    if (!(t >> 63)) { lz += 1; }
    if (lz) {
        f2 = (f2 << lz) | (f1 >> (64 - lz));
        f1 = (f1 << lz) | (f0 >> (64 - lz));
    }
    shift += lz;
    /* F << shift: bits 191..139 are f2's top 53, bits 138..86 the next 53. */
    double fh = (double)(f2 >> 11) * pow2(-51 - shift);
    double fl = (double)(((f2 & 0x7ffu) << 42) | (f1 >> 22)) * pow2(-104 - shift);

    /* r = (fh + fl) pi/2, to about 2^-103 relatively. */
    double p, pe;
    two_product(fh, PIO2_HI, &p, &pe);
    pe += fh * PIO2_LO + fl * PIO2_HI;
    fast_two_sum(p, pe, rh, rl);
    if (negative) {
        *rh = -*rh;
        *rl = -*rl;
    }
    return q & 3;
}

/* sin r and cos r for r = rh + rl, 0 <= rh <= pi/4 + 2^-30, |rl| <= 2 ulp(rh). */
static void kernel(double rh, double rl, double *sr, double *cr)
{
    if (rh < 0x1p-20) {
        /* Below 2^-20 (tiny angles, and angles within 2^-20 of a multiple of pi/2): sin r = r - r^3/6
         * and cos r = 1 - r^2/2 with the next terms below 2^-86 of the result. */
        *sr = rh + (rl + rh * (rh * rh) * S0);
        *cr = 1.0 - 0.5 * (rh * rh);
        return;
    }
    /* The polynomials in Estrin's scheme (shorter chains of dependent operations than Horner's), and
     * the tail rl to first order: sin(rh + rl) = sin rh + rl cos rh, cos(rh + rl) = cos rh - rl sin rh,
     * with cos rh ~ 1 - z/2 and sin rh ~ rh (the next terms are below 2^-100 of the result). The
     * leading terms stay exact: rh itself, and for the cosine 1 - z/2 = v plus its rounding error,
     * (1 - v) - z/2, which is exact (Sterbenz). */
    double z = rh * rh, w = z * z;
    double ps = (S0 + z * S1) + w * ((S2 + z * S3) + w * (S4 + z * S5));
    double pc = (C0 + z * C1) + w * ((C2 + z * C3) + w * (C4 + z * C5));
    double hz = 0.5 * z, v = 1.0 - hz;
    *sr = rh + ((rh * z) * ps + (rl - rl * hz));
    *cr = v + (((1.0 - v) - hz) + (w * pc - rh * rl));
}

void c2d_sincos(double x, double *s, double *c)
{
    double ax = fabs(x), rh, rl;
    int q;
    if (ax < 0x1p-27) {
        /* |sin x - x| < |x|^3/6 and |cos x - 1| < x^2/2 are below half an ulp. */
        *s = x;
        *c = 1.0;
        return;
    }
    /* Below pi/4 too: there Cody-Waite's k is 0 and its steps subtract zeros, exactly, leaving rh = ax,
     * rl = +0 and q = 0, which is r = x. A branch for that case alone would go whichever way a random
     * angle does, missed on about one placement in four. */
    if (ax < 0x1p20) {
        q = reduce_medium(ax, &rh, &rl);
    } else if (ax <= DBL_MAX) {
        q = reduce_large(ax, &rh, &rl);
    } else {
        *s = *c = x - x; /* NaN */
        return;
    }

    /* sin(-r) = -sin r, then the quadrant: (sin, cos) of x = (s, c), (c, -s), (-s, -c), (-c, s) for
     * q = 0, 1, 2, 3, where s and c are sin r and cos r; sin(-x) = -sin x. Selected by indexing rather
     * than by branches, which a random angle would mispredict half the time. */
    static const double sign[2] = {1.0, -1.0};
    double sgn_r = sign[rh < 0], sr, cr, v[2];
    kernel(fabs(rh), rl * sgn_r, &sr, &cr);
    v[0] = sr * sgn_r;
    v[1] = cr;
    q &= 3;
    *s = v[q & 1] * sign[(q >> 1) ^ (x < 0)];
    *c = v[(q & 1) ^ 1] * sign[((q + 1) >> 1) & 1];
}
