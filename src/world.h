/* world.h - what the world's own files share beyond the public calls. Layer 7, the world. */
#ifndef C2D_WORLD_H
#define C2D_WORLD_H

#include "collide2d.h"

/* c2d_world_query_aabb with no capacity to guess: every entry found, in a new array in *out (freed by
 * the caller with free; never NULL on success) and their number in *count. The filter's accept is
 * asked once per candidate, as in every query. world.c. */
c2d_status c2d_world_query_aabb_all(const c2d_world *world, c2d_aabb box, const c2d_world_filter *filter,
                                    c2d_world_hit **out, int *count);

#endif /* C2D_WORLD_H */
