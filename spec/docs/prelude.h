/* spec/docs/prelude.h - the context the C snippets of docs/c-api.md take for granted, for suite 70-docs
 * (spec/docs/c_examples.lua includes it before each snippet, which it wraps in a function body).
 * Declarations only, so the snippets compile with -fsyntax-only and nothing here is "unused".
 * Keep it to what a reader would assume from the names; a snippet that needs something odder declares
 * it itself. */
#include <collide2d.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The game's collision containers: static sets (a level of tiles, a pinball table, a breakout's
 * bricks, a shooter's walls) and a world of moving entries. */
extern c2d_static_set *set, *level, *table, *bricks, *walls;
extern c2d_world *world;
enum { PLATFORM = 2, FLIPPER = 5 };  /* indices of shapes in a static set */
extern int first_ledge, count;       /* a range of indices: first_ledge .. count - 1 */

/* Shapes the game owns. */
extern c2d_shape *player, *guard, *wall, *box, *brick, *crate, *probe, *standing_box, *flipper;

/* World entries: ids, and the game's own array of crates with theirs (crates[i] is the one at hand). */
extern c2d_world_id id, player_id, enemy_id, flipper_id, lift_id, door_id;
extern struct crate { c2d_shape *shape; c2d_world_id id; } crates[64];
extern int ncrates, i;

/* Balls, and a step's options and results: res and hits as c2d_static_set_step_ball fills them. */
extern c2d_ball ball, bullet;
extern c2d_move_options opts;
extern c2d_move_result res;
extern c2d_sweep_contact hits[16];

/* Numbers of a frame: its length, input, a camera, a spot (x, y), a paddle's and a flipper's state,
 * and a platformer's run, jump and gravity (a y-down screen). */
extern double dt, mouse_x, mouse_y, cam_x, cam_y, x, y, vx, vy, paddle_x, angle;
extern c2d_vec2 hinge, eye, from, aim, gun, push, target_minus_muzzle;
extern int dir, jump, score;
extern const double RUN, JUMP, GRAVITY;
extern struct game *game;            /* the game's state, the ctx of its callbacks */
extern c2d_aabb view;                /* what the camera sees */

/* Callbacks the game defines: a world's response to each entry met, and receivers of contact records. */
c2d_response respond(void *ctx, c2d_world_id id, uintptr_t user);
c2d_response cross_enemies(void *ctx, c2d_world_id id, uintptr_t user);
c2d_status on_hits(void *ctx, const c2d_contact_record *records, int count);
c2d_status on_contacts(void *ctx, const c2d_contact_record *records, int count);

/* The game's drawing and effects. */
void draw_polygon(const c2d_vec2 *v, int n);
void draw_circle(c2d_vec2 centre, double r);
void draw_crate(int crate);
void spawn_spark(c2d_vec2 at);
void spawn_sparks(c2d_vec2 at, c2d_vec2 normal);
void kick(c2d_ball *ball, c2d_vec2 normal);
void select_tile(int index);
void crack_pane(int index);
void damage(int target, double t);
void separate(int a, int b, c2d_vec2 normal, double depth);
