/* decompose.h - splitting a concave polygon outline, optionally with holes, into few strictly convex
 * parts (see decompose.c for how). Private: no C2D_API, so the shared library does not export it; the
 * test binaries compile src/decompose.c in (see the Makefile), and a future public entry point (a
 * compound shape, a level loader) would be built on it.
 *
 * The promise, which spec/c/test_decompose.c checks on many random outlines:
 *  - the parts are strictly convex, counter-clockwise, with no repeated vertex and no 180-degree
 *    vertex, and their vertices are bit-identical copies of input points (no new points are made);
 *  - the parts cover the outline minus the holes exactly: they meet only along whole edges, and every
 *    interior edge of a part (internal = 1) is matched by exactly one edge of exactly one other part,
 *    with the same two end points in reverse order; every other edge (internal = 0) lies on the
 *    outline or on a hole. No vertex of one part lies inside an edge of another (no T-junctions),
 *    which is why points in the middle of a straight run of input points are dropped first;
 *  - a convex input (after that cleaning) gives exactly one part with no interior edge;
 *  - at most 2r + 1 parts for r reflex vertices (Hertel-Mehlhorn's bound, so at most four times the
 *    fewest possible for an outline without holes);
 *  - the same input gives the same bytes, on every platform.
 */
#ifndef C2D_DECOMPOSE_H
#define C2D_DECOMPOSE_H

#include "collide2d.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct c2d_decomposition {
    int part_count;          /* at least 1 */
    int *part_start;         /* part_count + 1 offsets into verts and internal: part i is
                              * verts[part_start[i] .. part_start[i + 1]) */
    c2d_vec2 *verts;         /* each part's vertices, counter-clockwise, strictly convex (no 180-degree
                              * vertices, no repeats), bit-identical copies of input points */
    unsigned char *internal; /* per part edge k (vertex k to k + 1 of that part, cyclically): 1 when the
                              * edge is interior (shared with exactly one other part), 0 when it lies on
                              * the outline or a hole boundary */
    double area;             /* outline area minus the holes' areas, computed from the input rings */
} c2d_decomposition;

/* Splits the region inside outline[0 .. n) and outside each holes[i][0 .. hole_counts[i]) into convex
 * parts, written to *out (release with c2d_decomposition_free). Rings may wind either way; consecutive
 * repeated points and points in the middle of a straight run (exactly collinear with their neighbours)
 * are dropped. holes and hole_counts may be NULL when hole_count is 0.
 * Errors, with *out untouched and nothing allocated:
 *   C2D_ERR_NULL        outline or out NULL; holes or hole_counts NULL with hole_count > 0; a hole NULL
 *   C2D_ERR_RANGE       n or a hole count negative, more than C2D_MAX_POLYGON_POINTS points in all,
 *                       hole_count outside 0 .. C2D_MAX_POLYGON_POINTS, or a coordinate's magnitude
 *                       above C2D_MAX_COORDINATE
 *   C2D_ERR_NOT_FINITE  a coordinate NaN or infinite
 *   C2D_ERR_DEGENERATE  a ring with fewer than 3 distinct points, or all its points on one line
 *   C2D_ERR_NOT_SIMPLE  a ring crosses or touches itself (two edges that are not neighbours meet, a
 *                       vertex lies on another edge, or the ring doubles back along itself), a hole
 *                       is not strictly inside the outline, or two holes meet or one holds another
 *   C2D_ERR_NO_MEMORY   an allocation failed
 * Every decision is exact (signs of c2d_orient and comparisons of input coordinates). The time grows
 * about as n log n for ordinary outlines of n points (10,000 take some tens of milliseconds), plus
 * (number of holes) x n to bridge the holes; it tends to n^2 when thousands of edges pass through one
 * small area (a star whose inner points crowd its centre: 60,000 points then take seconds). */
c2d_status c2d_decompose(const c2d_vec2 *outline, int n, const c2d_vec2 *const *holes, const int *hole_counts,
                         int hole_count, c2d_decomposition *out);

/* Releases what c2d_decompose allocated and zeroes *d; NULL, or a zeroed decomposition, is fine. */
void c2d_decomposition_free(c2d_decomposition *d);

#ifdef __cplusplus
}
#endif

#endif
