/* predicates.h - exact orientation signs (see predicates.c for how, and for the one limit). */
#ifndef C2D_PREDICATES_H
#define C2D_PREDICATES_H

#include "collide2d.h"

/* Sign (+1, 0, -1) of (b - a) x (c - a): +1 when c lies left of the directed line a -> b. */
int c2d_orient(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c);

/* Sign of d x (p - o): +1 when p lies left of the ray from o in direction d. */
int c2d_orient_dir(c2d_vec2 o, c2d_vec2 d, c2d_vec2 p);

#endif
