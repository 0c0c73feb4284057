/* predicates.h - exact orientation signs (see predicates.c for how, and for the one limit). */
#ifndef C2D_PREDICATES_H
#define C2D_PREDICATES_H

#include "collide2d.h"

/* Sign (+1, 0, -1) of (b - a) x (c - a): +1 when c lies left of the directed line a -> b. */
int c2d_orient(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c);

/* Sign of d x (p - o): +1 when p lies left of the ray from o in direction d. */
int c2d_orient_dir(c2d_vec2 o, c2d_vec2 d, c2d_vec2 p);

/* The value of (b - a) x (c - a) times 2^(2k), within a few ulps of the exact value for the double
 * inputs (their differences taken without rounding, the products and their sum as an exact expansion
 * that is then added up): the size of a determinant that cancels, such as twice the area of a sliver
 * triangle, which the plain formula can get wrong in every digit and even in sign. Choose k so that
 * the largest difference times 2^k is near 2^400 (the expansion is exact while no partial product
 * underflows) and the result neither overflows nor underflows for the caller's use. */
double c2d_cross_scaled(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c, int k);

#endif
