/* compound.h - what the files of compound shapes (chains and concave polygons) share. Layer 5,
 * compound shapes.
 *
 * A compound keeps its parts twice: placed with it in the world (moved whenever the compound is, so
 * that the part-by-part queries read ordinary shapes), and once for all in its own frame as a static
 * set, whose seams mark the joints between parts (the interior edges of a concave polygon, the joints
 * of a chain). The questions that a union answers differently from its parts - how deep another shape
 * is in it and which way out, when a motion first meets it - go to that set, with the other shape
 * carried into the compound's frame: the set's push-out is the shortest way out of the union, and its
 * sweep never stops at a seam. The rest is the union of the parts' answers: overlap, containment,
 * the nearest point from outside, ray casts and distances between apart shapes.
 *
 * The files, each calling only those listed before it (and the layers below):
 *   compound.c         making chains and concave polygons, copying them; the part count and vertices
 *   compoundset.c      another shape carried into a compound's frame, and swept against its set
 *   compoundmove.c     whether a move of one compound leaves it clear of another, and how far it must go
 *   compoundcontact.c  the contact of a compound with a shape or another compound (c2d_compound_collide)
 *   compoundsweep.c    sweeps of a compound against a shape or another compound (c2d_compound_sweep)
 *   compoundquery.c    overlap, containment, closest point, ray casts and distance
 * Their entry points for the public calls (pairs.c) are declared in shape.h. */
#ifndef C2D_COMPOUND_H
#define C2D_COMPOUND_H

#include "parts.h"
#include "sweep.h"

/* compoundset.c: a copy of b placed in a's frame (its placement relative to a's), or NULL when out
 * of memory. */
c2d_shape *c2d_compound_carry(const c2d_shape *a, const c2d_shape *b);
/* compoundset.c: the sweep of convex b (moving by db) against compound a (moving by da). */
c2d_status c2d_compound_convex_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db,
                                     c2d_toi *out);

/* The push-out of convex b out of the union of compound a's parts, in a's frame (zero when b is not in
 * it deeper than touching). Inline: the contact of a compound with a convex shape and every check of
 * a chain segment against a union begin with it. */
static inline c2d_status c2d_compound_union_push(const c2d_shape *a, const c2d_shape *b, c2d_vec2 *out)
{
    c2d_shape *lb = c2d_compound_carry(a, b);
    if (!lb)
        return C2D_ERR_NO_MEMORY;
    c2d_status st = c2d_static_set_push_out(c2d_compound_of(a)->set, lb, out);
    c2d_shape_destroy(lb);
    return st;
}

/* compoundmove.c, for the contact of two compounds (see there): moved holds a copy of each part of b,
 * which these place; near is scratch, one int per part of a and of b; u is a unit direction. */
/* How far along u b must move for none of its parts to overlap a. */
c2d_status c2d_compound_clear_along(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, c2d_vec2 u,
                                    double *out);
/* Whether b moved by d overlaps a deeper than tol (with a chain: or crosses it). */
c2d_status c2d_compound_caught_after(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, int *near,
                                     c2d_vec2 d, double tol, int *out);
/* With a chain: the least distance s >= from along u at which b is not caught, or -1. */
c2d_status c2d_compound_verified_along(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, int *near,
                                       c2d_vec2 u, double from, double tol, double *out);
/* With a chain: where b, moved back from len along u, first touches a, when nothing is caught there. */
c2d_status c2d_compound_back_to_touch(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, int *near,
                                      c2d_vec2 u, double len, double tol, double *out);

/* compoundcontact.c: whether compound b comes before compound a in the fixed order of their geometry
 * in which a pair of compounds is computed, so that (a, b) and (b, a) agree exactly. */
int c2d_compound_second_first(const c2d_shape *a, const c2d_shape *b);

#endif /* C2D_COMPOUND_H */
