/* character.h - what the world's character mover (worldmove.c, layer 7) needs of the static set's
 * (character.c, layer 4): the checks of its input, made before the world asks any callback. */
#ifndef C2D_CHARACTER_H
#define C2D_CHARACTER_H

#include "collide2d.h"

/* C2D_OK, or the status c2d_static_set_move_character answers for this displacement, these options
 * (not NULL) and a state with this ground normal and velocity (its index aside). */
c2d_status c2d_character_check(c2d_vec2 d, const c2d_character_options *o, c2d_vec2 ground_normal,
                               c2d_vec2 ground_velocity);

#endif
