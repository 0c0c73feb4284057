/* parts.h - the storage of a compound shape (a chain or a concave polygon): its convex parts, placed
 * with it and in its own frame, and which of them meet. Layer 2, shapes: shape.c keeps them (places,
 * frees and copies them, says which meet); the static set of its parts and every query of a compound
 * belong to compound.c (layer 5), which makes compounds; the static set (layer 4) reads the parts
 * through the calls declared in shape.h. */
#ifndef C2D_PARTS_H
#define C2D_PARTS_H

#include "shape.h"

struct c2d_compound {
    int n;               /* parts */
    c2d_shape **part;    /* placed with the compound, in the world */
    c2d_vec2 *lpos;      /* each part's position in the compound's frame */
    c2d_shape **lpart;   /* each part in the compound's frame (at lpos, angle 0) */
    c2d_static_set *set; /* the lparts, with their seams (made, copied and freed by compound.c) */
    /* What a compound needs of the layers above this one: copying it (its set, made anew over the
     * copied parts) and freeing its set. compound.c, which makes every compound, sets both. */
    c2d_status (*copy)(const c2d_compound *src, c2d_compound **out);
    void (*drop_set)(c2d_static_set *set);
    int one_sided;       /* a chain whose segments block only from their right (see c2d_chain_new) */
    /* The pairs of parts that meet along a joint (a shared edge, a chain's shared end), as a * n + b
     * with a < b, sorted: only these join, so a hole narrower than the seam tolerance stays a hole. */
    long long *adj;
    int n_adj;
    /* A concave polygon's parts' vertices as numbers of the points they are (one number for every
     * copy of a point), part k's ascending in vid[vstart[k] .. vstart[k + 1]): parts with a number in
     * common meet at that corner, also when other parts lie between them around it. NULL for a
     * chain, whose segments meet only where they join. */
    int *vstart;
    int *vid;
    /* A concave polygon's holes, relative to its position as its outline is (the shape's data): hole h
     * is hole_pt[hole_start[h] .. hole_start[h + 1]). With the outline they are its boundary, which
     * the parts' edges give only up to rounding: a part's edge may join a piece of a hole to a joint
     * (the point between them dropped as no corner once measured from the position), so no edge is
     * surface or seam as a whole there. NULL and 0 for a chain and for a polygon without holes. */
    int n_holes;
    int *hole_start;
    c2d_vec2 *hole_pt;
};

#endif /* C2D_PARTS_H */
