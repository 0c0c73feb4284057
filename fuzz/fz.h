/* fz.h - what every file of the fuzz harness shares: its limits, the state an input's operations work
 * on (shape slots, the static set and the harness's copies of its members, the world and its model),
 * the failing API (FZ_CHECK), and the functions one file of the harness calls in another.
 *
 * The harness is split by concern; fuzz_api.c (the op table and LLVMFuzzerTestOneInput) says what an
 * input means and fuzz/README.md lists the invariants. The files, from the bottom up:
 *   fz_core.c         failing and FZ_TRACE's dumps, decoding input bytes, small checks, shape snapshots
 *   fz_oracle.c       the harness's own exact orientation and the ring predicates built on it
 *   fz_model.c        what the harness knows of chains and concave polygons, and the checks of their
 *                     queries against the rings they were made from
 *   fz_checks.c       what the pair, point and ray queries promise (checked after every call)
 *   ops_shapes.c      the shape operations: constructors, transforms, pair, point and ray queries
 *   ops_sweep.c       c2d_sweep, and the moved copies the swept checks sample
 *   ops_turn.c        c2d_sweep_motion, and the copies of turning shapes placed at a time of their motion
 *   ops_sets.c        static sets: made, enabled, marked, swept through, pushed out of
 *   ops_members.c     members of a set that move and block from one side
 *   ops_moves.c       set moves and ball steps, and the contact records every move writes
 *   ops_world.c       worlds: the harness's model, entries, filters, queries, rays, pairs
 *   ops_world_move.c  world moves and ball steps, and a world entry's one-way direction
 *   ops_level.c       a world's level (a static set its motions meet), casts, world push-outs, timed moves
 *   ops_compound.c    chains and concave polygons: made from fuzzed rings, points and rays near them
 *   ops_setquery.c    a static set's queries and rays against brute force over its shapes
 *   ops_world_entry.c a world entry enabled or disabled, and given a velocity
 *   ops_character.c   the character mover, through a set and through a world
 *   ops_balls.c       many balls stepped at once through the set and against each other
 *   fuzz_api.c        the op table and the entry point
 * Everything here was one file (fuzz_api.c) until issue 23; the functions kept their names (fz_ and
 * op_ prefixes) and their code. */
#ifndef FZ_H
#define FZ_H

#include "collide2d.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZ_SLOTS 6
#define FZ_MAX_POINTS 24
#define FZ_MAX_VERTS 64
#define FZ_OP_SLOTS 64
/* Relative tolerance for comparisons between different queries: rounding errors scale with the
 * coordinates involved, and these checks look for wrong answers, not for the last few ulps. */
#define FZ_REL_TOL 1e-9

/* Static sets hold up to this many shapes; worlds up to this many entries (live or removed). */
#define FZ_SET_MAX 16
#define FZ_MAX_ENTRIES 24
/* all_pairs is the most expensive op (21 pairs, each checked both ways): at most this many per input. */
#define FZ_ALL_PAIRS_MAX 3

#define FZ_RING_PTS 24 /* points of an outline or chain */
#define FZ_HOLES 3
#define FZ_HOLE_PTS 10
/* Vertices of all parts of a compound (the snapshot keeps them) and edges of one set member. */
#define FZ_PART_VERTS 512
#define FZ_SET_EDGES 256

/* The rings a compound was made from, in the world as it was made (its position then pos0, angle 0):
 * the outline and holes of a concave polygon, or a chain's points (open or closed). Queries are
 * checked against these rings placed where the shape stands now (see fz_model_place). */
typedef struct fz_model {
    int kind; /* 0 (none), C2D_SHAPE_CONCAVE or C2D_SHAPE_CHAIN */
    int closed, one_sided;
    int narrow; /* a concave polygon's rings come within its joint tolerance (see fz_rings_narrow) */
    int rings;
    int cnt[1 + FZ_HOLES];
    c2d_vec2 p[1 + FZ_HOLES][FZ_RING_PTS];
    c2d_vec2 pos0;
} fz_model;

/* An entry of the world as the harness added it; the harness owns its shape (a copy of a slot). */
typedef struct fz_entry {
    c2d_world_id id;
    c2d_shape *shape;
    uintptr_t user;
    unsigned cat, mask;
    int live;
    c2d_vec2 ow; /* its one-way direction as c2d_world_get_one_way reported it after the last change */
    int os;      /* its shape is a one-sided chain (each segment blocks from its right) */
    int off;     /* disabled (c2d_world_set_enabled): kept, but no query, ray, pair or move sees it */
    c2d_vec2 vel; /* its velocity as set (c2d_world_set_velocity; zero: it stands still in moves) */
} fz_entry;

typedef struct fz_state {
    const uint8_t *p;
    size_t n;
    c2d_shape *slot[FZ_SLOTS];
    fz_model model[FZ_SLOTS]; /* the rings a slot's chain or concave polygon was made from (kind 0: none) */
    int all_pairs_runs;
    /* The static set and copies of the shapes it was made from (its index i is set_shape[i]). */
    c2d_static_set *set;
    int set_n;
    c2d_shape *set_shape[FZ_SET_MAX];
    int set_on[FZ_SET_MAX];
    double set_seam_tol; /* the seam tolerance the set was made with (0: the default, 1e-9 of its size) */
    /* Members: set_shape[i] follows every accepted c2d_static_set_set_transform; the velocity as set
     * and the one-way direction as the library reported it after the last change (zero: none). */
    c2d_vec2 set_vel[FZ_SET_MAX], set_ow[FZ_SET_MAX];
    /* The largest coordinate magnitude of the members as the set was made (see fz_set_scale). */
    double set_mag;
    /* Turning members (c2d_static_set_set_motion): the angular velocity and the pivot (in the member's
     * own frame) as set; set_vel is the motion's velocity. set_pivot_get is the pivot
     * c2d_static_set_get_motion must give (see fz_strict_pivot), set_spun whether any member of the set
     * was ever given a turn (the library keeps pivots from then on). */
    double set_w[FZ_SET_MAX];
    c2d_vec2 set_pivot[FZ_SET_MAX], set_pivot_get[FZ_SET_MAX];
    int set_spun;
    /* One-sided chains among the members (set_os), and whether each segment still blocks from its own
     * right (set_seg; set_ow is then part 0's direction, as c2d_static_set_get_one_way reports it),
     * or a direction set with c2d_static_set_set_one_way applies to every segment (set_seg 0). */
    int set_os[FZ_SET_MAX], set_seg[FZ_SET_MAX];
    /* Each member's user value as given with c2d_static_set_set_user (0 unless given). */
    uintptr_t set_user[FZ_SET_MAX];
    /* The world, the harness's model of it, and shapes of removed entries awaiting the end of the
     * call that removed them (a callback may remove an entry the query still holds). */
    c2d_world *world;
    fz_entry ent[FZ_MAX_ENTRIES];
    int n_ent;
    c2d_shape *grave[FZ_MAX_ENTRIES];
    int n_grave;
    int pair_mod; /* the pair filter in use: 0 none, else see fz_pair_filter */
    /* The world has the static set as its level (c2d_world_set_level): unset before either is freed. */
    int level;
    /* The states the last accepted character moves left (ops_character.c), for the next call to
     * start from (a character walks call after call). */
    c2d_character_state ch;
    c2d_world_character_state wch;
    int ch_valid, wch_valid;
} fz_state;

/* ---- failing (fz_core.c) ------------------------------------------------------------------- */

/* The operation running, for the failure message. */
extern const char *fz_current_op;
/* FZ_TRACE: -1 until read, then whether it is set (=2 also dumps the shapes before every operation). */
extern int fz_trace;
/* What FZ_TRACE dumps on a failure: the input's slots and the rest of its state. */
extern c2d_shape *const *fz_trace_slots;
extern const fz_state *fz_trace_state;
/* The FZ_STRICT_* switches (-1 until read from the environment; fz_core.c says what each turns on). */
extern int fz_strict_pairs, fz_strict_chain, fz_strict_touch, fz_strict_joints, fz_strict_misc, fz_strict_pivot,
    fz_strict_circle_pivot, fz_strict_carry, fz_strict_balls;
/* The kinds of the pair being checked, for the failure message. */
extern int fz_kind_a, fz_kind_b;

/* Prints what broke (and, with FZ_TRACE, every live shape) and aborts. */
void fz_fail(const char *file, int line, const char *fmt, ...);

#define FZ_CHECK(cond, ...)                                                         \
    do {                                                                            \
        if (!(cond))                                                                \
            fz_fail(__FILE__, __LINE__, __VA_ARGS__);                               \
    } while (0)

/* Bytes that no correct call writes: out-parameters are pre-filled with them to prove "not written". */
#define FZ_POISON 0xA5

/* ---- types more than one file uses ----------------------------------------------------------- */

/* A compound's rings as placed now (see fz_model_place). */
typedef c2d_vec2 fz_rings[1 + FZ_HOLES][FZ_RING_PTS];

/* Everything observable about a shape (fz_snapshot_take). */
typedef struct fz_snapshot {
    c2d_shape_type type;
    int count;
    c2d_vec2 pos;
    double angle;
    double radius;
    c2d_aabb aabb;
    c2d_vec2 v[FZ_MAX_VERTS];
    /* The parts (one for the convex kinds) and all their vertices, one part after the other: a
     * compound whose outline stayed but whose parts moved has changed too. */
    int parts, part_verts;
    c2d_vec2 pv[FZ_PART_VERTS];
} fz_snapshot;

/* Observable state of the set: count, every seam flag, and each member's placement, velocity and
 * one-way direction. */
typedef struct fz_set_snap {
    int count;
    unsigned char seam[FZ_SET_MAX][FZ_SET_EDGES];
    c2d_vec2 pos[FZ_SET_MAX], vel[FZ_SET_MAX], ow[FZ_SET_MAX], pivot[FZ_SET_MAX];
    double angle[FZ_SET_MAX], w[FZ_SET_MAX];
} fz_set_snap;

/* Everything observable about the world, to prove that a rejected call changed nothing. */
typedef struct fz_world_snap {
    int count;
    struct {
        c2d_shape *shape;
        uintptr_t user;
        unsigned cat, mask;
        int status;
        c2d_vec2 ow;
        int on;       /* c2d_world_get_enabled */
        c2d_vec2 vel; /* c2d_world_get_velocity */
    } e[FZ_MAX_ENTRIES];
} fz_world_snap;

/* The query filter and its callback. The callback may refuse entries and may remove entries (itself
 * or others, already accepted or not); it records what it saw. */
typedef struct fz_query_ctx {
    fz_state *st;
    const c2d_world_filter *filter;
    uint8_t salt, mode;
    int calls;
    int called[FZ_MAX_ENTRIES], said[FZ_MAX_ENTRIES];
} fz_query_ctx;

/* Room for every contact a move or ball step can count: 256, then the one that truncates it. */
#define FZ_REC_MAX 300

/* Every contact of a move's plain call given room, the same for a world call, and the records of its
 * _records form with room and short of it (ops_moves.c). */
extern c2d_world_contact fz_wall[FZ_REC_MAX];
extern c2d_contact_record fz_rec[FZ_REC_MAX], fz_rec_short[FZ_REC_MAX];

/* ---- fz_core.c: failing, decoding, small checks, snapshots ---------------------------------- */

void fz_dump_shape(const char *what, int i, const c2d_shape *s);
void fz_dump_slots(void);
uint8_t fz_byte(fz_state *st);
double fz_number(fz_state *st);
c2d_vec2 fz_vec(fz_state *st);
c2d_vec2 fz_v(double x, double y);
int fz_slot(fz_state *st);
int fz_ok_number(double x);
int fz_ok_vec(c2d_vec2 v);
int fz_finite_vec(c2d_vec2 v);
double fz_vec_mag(c2d_vec2 v);
double fz_len(c2d_vec2 v);
c2d_vec2 fz_sub(c2d_vec2 a, c2d_vec2 b);
void fz_check_status(c2d_status s);
void fz_check_status_concave(c2d_status s);
void fz_check_unit(c2d_vec2 n, const char *what);
double fz_shape_scale(const c2d_shape *s);
int fz_is_poison(const void *p, size_t n);
int fz_is_compound(const c2d_shape *s);
int fz_vec_eq(c2d_vec2 a, c2d_vec2 b);
void fz_snapshot_take(const c2d_shape *s, fz_snapshot *out);
void fz_check_shape(const c2d_shape *s);
int fz_snapshot_equal(const fz_snapshot *a, const fz_snapshot *b);

/* ---- fz_oracle.c: exact orientation and rings ------------------------------------------------ */

int fz_orient(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c);
int fz_veq(c2d_vec2 a, c2d_vec2 b);
int fz_ring_parity(const c2d_vec2 *p, int n, c2d_vec2 q);
int fz_ring_dedupe(const c2d_vec2 *in, int n, c2d_vec2 *out);
int fz_ring_degenerate(const c2d_vec2 *p, int k);
int fz_ring_middles(const c2d_vec2 *p, int k, unsigned char *mid);
int fz_ring_simple(const c2d_vec2 *p, int k);
int fz_rings_meet(const c2d_vec2 *p, int n, const c2d_vec2 *q, int m);
c2d_vec2 fz_seg_closest(c2d_vec2 a, c2d_vec2 b, c2d_vec2 q);

/* ---- fz_model.c: chains and concave polygons, and their rings -------------------------------- */

void fz_model_place(const fz_model *m, const c2d_shape *s, fz_rings w);
void fz_part(const c2d_shape *s, int k, c2d_vec2 *v, int cap, int *n);
int fz_part_count(const c2d_shape *s);
int fz_edge_count(const c2d_shape *s);
c2d_vec2 fz_chain_right(const c2d_shape *s, int k);
double fz_part_distance(const c2d_shape *s, const c2d_shape *member, c2d_vec2 shift);
double fz_points_width(const c2d_vec2 *v, int n);
double fz_min_width(const c2d_shape *s);
int fz_chain_side_ok(const c2d_shape *s, c2d_vec2 shift, c2d_vec2 point, c2d_vec2 normal, double tol);
void fz_check_model_point(const fz_state *st, int k, c2d_vec2 p);
void fz_check_model_ray(const fz_state *st, int k, c2d_vec2 o, c2d_vec2 d, double max_t, const c2d_ray_hit *h);
void fz_check_slots(fz_state *st, int i, int j);

/* ---- fz_checks.c: what the queries promise ----------------------------------------------------- */

double fz_sd(const c2d_shape *s, c2d_vec2 p);
double fz_sliver_slack(const c2d_shape *s);
int fz_same_bits(double x, double y);
void fz_check_pair(const c2d_shape *a, const c2d_shape *b);
void fz_check_ray(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t, const c2d_ray_hit *h);
void fz_check_miss(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t);

/* ---- the operations (each takes the state and reads its own arguments) ------------------------- */

/* ops_shapes.c */
void fz_created(fz_state *st, int slot, c2d_status r, int should_accept, c2d_shape *out, c2d_shape *sentinel);
c2d_shape *fz_sentinel(void);
void op_circle(fz_state *st);
void op_rect(fz_state *st);
void op_capsule(fz_state *st);
void op_segment(fz_state *st);
void op_polygon(fz_state *st);
void op_hull(fz_state *st);
void op_clone(fz_state *st);
void op_destroy(fz_state *st);
void op_set_position(fz_state *st);
void op_set_angle(fz_state *st);
void op_set_transform(fz_state *st);
void op_move(fz_state *st);
void op_rotate(fz_state *st);
void op_pair(fz_state *st);
void op_all_pairs(fz_state *st);
void op_point(fz_state *st);
void op_raycast(fz_state *st);
void op_aimed_ray(fz_state *st);
void op_feature_ray(fz_state *st);
void op_share(fz_state *st);
void op_vertices(fz_state *st);
void op_misc(fz_state *st);

/* ops_sweep.c */
c2d_shape *fz_moved(const c2d_shape *s, c2d_vec2 d, double k);
double fz_dist_moved(const c2d_shape *a, c2d_vec2 da, double ka, const c2d_shape *b, c2d_vec2 db, double kb);
double fz_dist(const c2d_shape *a, const c2d_shape *b);
void op_sweep(fz_state *st);

/* ops_turn.c */
unsigned fz_motion_allowed(const c2d_shape *s, const c2d_motion *m);
const c2d_motion *fz_motion(fz_state *st, const c2d_shape *s, c2d_motion *m);
int fz_turns(const c2d_motion *m);
c2d_vec2 fz_pivot_world(const c2d_shape *s, const c2d_motion *m);
double fz_motion_scale(const c2d_shape *s, const c2d_motion *m);
int fz_pose_exact_enough(const c2d_shape *s, const c2d_motion *m, double t, double tol);
c2d_shape *fz_posed(const c2d_shape *s, const c2d_motion *m, double t);
c2d_vec2 fz_motion_velocity_at(const c2d_shape *s, const c2d_motion *m, double t, c2d_vec2 p);
void op_sweep_motion(fz_state *st);
void op_set_move_turning(fz_state *st);

/* ops_sets.c */
void fz_set_snapshot(const fz_state *st, fz_set_snap *sn);
void fz_set_free(fz_state *st);
void fz_set_chain_faces(fz_state *st, int i);
void op_set_new(fz_state *st);
int fz_set_index(fz_state *st);
void op_set_enable(fz_state *st);
void op_set_mark(fz_state *st);
int fz_member_moves(const fz_state *st, int i);
int fz_member_turns(const fz_state *st, int i);
c2d_motion fz_member_motion(const fz_state *st, int i);
int fz_member_at(const fz_state *st, int i, double tm, const c2d_shape **out, c2d_shape **owned);
int fz_member_one_way(const fz_state *st, int i);
double fz_set_clearance(const fz_state *st, const c2d_shape *s, c2d_vec2 d, double k, double tm,
                        const c2d_response *resp, int *which);
double fz_set_scale(const fz_state *st, const c2d_shape *mover, c2d_vec2 d, double horizon);
double fz_set_max_speed(const fz_state *st);
void op_set_sweep(fz_state *st);
void fz_check_one_way_contacts(const fz_state *st, const c2d_sweep_contact *c, int n, double dt, double scale);
void op_set_push_out(fz_state *st);
const c2d_move_options *fz_move_options(fz_state *st, c2d_move_options *o, c2d_response *arr, int n,
                                        c2d_response dflt, c2d_response *resp, int *ok);
void fz_check_contacts(const c2d_sweep_contact *c, int cap, int count, int n, const c2d_response *resp);
void fz_check_move_result(const c2d_move_result *r);

/* ops_members.c */
c2d_status fz_number_status(double x);
c2d_status fz_vec_status(c2d_vec2 v);
void fz_check_one_way_dir(c2d_vec2 v, c2d_vec2 u, const char *what);
void op_set_place(fz_state *st);
void op_set_velocity(fz_state *st);
void op_set_one_way(fz_state *st);
void op_set_motion(fz_state *st);

/* ops_moves.c */
int fz_contact_same(const c2d_sweep_contact *a, const c2d_sweep_contact *b);
int fz_record_same(const c2d_contact_record *a, const c2d_contact_record *b);
int fz_result_same(const c2d_move_result *a, const c2d_move_result *b);
int fz_short_capacity(int count, int salt);
void fz_check_record_position(const c2d_contact_record *r, int i, const c2d_shape *mover, double radius,
                              const c2d_shape *met, c2d_vec2 mv, double tm, double scale, int by_parts);
void op_set_move(fz_state *st);
c2d_ball fz_ball(fz_state *st);
int fz_ball_ok(const c2d_ball *b, double dt);
void op_set_ball(fz_state *st);

/* ops_world.c */
int fz_entry_of(const fz_state *st, c2d_world_id id);
int fz_bits_pass(const c2d_world_filter *f, unsigned cat, unsigned mask);
void fz_world_snapshot(const fz_state *st, fz_world_snap *sn);
void fz_world_free(fz_state *st);
void fz_entry_remove(fz_state *st, int k);
void fz_bury(fz_state *st);
void op_world_new(fz_state *st);
void op_world_add(fz_state *st);
int fz_entry_pick(fz_state *st, c2d_world_id *id);
void op_world_remove(fz_state *st);
void op_world_update(fz_state *st);
void op_world_set(fz_state *st);
const c2d_world_filter *fz_filter(fz_state *st, c2d_world_filter *f, fz_query_ctx *q);
void op_world_query(fz_state *st);
void op_world_ray(fz_state *st);
void op_world_pairs(fz_state *st);
void op_world_optimize(fz_state *st);

/* ops_world_move.c */
void op_world_move(fz_state *st);
void op_world_one_way(fz_state *st);

/* ops_level.c */
int fz_level_options_ok(const c2d_move_options *o, int n);
int fz_level_contact_ok(const fz_state *st, int index, uintptr_t user);
void op_world_level(fz_state *st);
void op_world_level_move(fz_state *st);
void op_casts(fz_state *st);
void op_world_push_out(fz_state *st);
void op_timed(fz_state *st);

/* ops_setquery.c */
void op_set_query(fz_state *st);

/* ops_world_entry.c */
int fz_entry_seen(const fz_entry *e);
int fz_entry_moves(const fz_entry *e);
void op_world_enable(fz_state *st);
void op_world_velocity(fz_state *st);

/* ops_character.c */
void op_set_character(fz_state *st);
void op_world_character(fz_state *st);

/* ops_balls.c */
void op_set_balls(fz_state *st);

/* ops_compound.c */
int fz_rings_flat(const c2d_vec2 *const *ring, const int *cnt, int rings);
void op_concave(fz_state *st);
void op_chain(fz_state *st);
void op_ring_point(fz_state *st);
void op_far(fz_state *st);

#endif
