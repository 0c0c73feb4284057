/*
 * binding.h - what the files of the Lua binding share: the boxes that hold shapes and worlds in
 * userdata, the names of their metatables, the upvalues every function of the module closes over, the
 * record sink of moves, the CHECK macro that turns a failed status into a Lua error, and the prototypes
 * of the functions one file calls in another. Those are hidden: luaopen_collide2d is the only symbol
 * the module exports, also from a build that does not pass -fvisibility=hidden (luarocks').
 */
#ifndef C2D_LUA_BINDING_H
#define C2D_LUA_BINDING_H

#include <stddef.h>
#include <stdint.h>

#include "collide2d.h"
#include "compat.h"

#define SHAPE_NAME "collide2d.shape"
#define SET_NAME "collide2d.staticset"
#define WORLD_NAME "collide2d.world"
#define WORLDS_NAME "collide2d.worlds"

/* Every function of the module (and every method and metamethod) is a closure over the three
 * metatables: comparing against an upvalue is the cheapest sure way to recognise our userdata on hot
 * paths (no registry lookup by name). The fourth upvalue maps each live world box (a light userdata)
 * to its userdata, weakly, so that shape:world() can answer. */
#define SHAPE_MT lua_upvalueindex(1)
#define SET_MT lua_upvalueindex(2)
#define WORLD_MT lua_upvalueindex(3)
#define WORLDS lua_upvalueindex(4)
#define NUPVALUES 4

typedef struct world_box world_box;

typedef struct shape_box {
    uintptr_t tag;     /* BOX_TAG(box) until collected: how the LuaJIT fast path knows a box */
    c2d_shape *shape;  /* NULL when destroyed (or when its constructor failed) */
    world_box *world;  /* the world the shape is in, or NULL */
    c2d_world_id id;   /* its entry there */
    uintptr_t key;     /* its key there (see world_box) */
    int pinned;        /* running world calls with Lua callbacks that read this shape */
} shape_box;

/* The layout the LuaJIT fast path depends on, all of it (see lua/ffi.c): ffi_shape reads
 * the tag before it knows that the memory is a shape box, so the tag comes first, where the read stays
 * as close as possible to the start of whatever userdata it was given. */
#define BOX_TAG(b) ((uintptr_t)(b) ^ (uintptr_t)0x63326473u)
typedef char shape_box_tag_is_first[offsetof(shape_box, tag) == 0 ? 1 : -1];

/* A world's box. The world userdata has two user values: the table of its entries' shapes and the
 * table of their user values, both keyed by the entry's key. */
struct world_box {
    c2d_world *world;     /* NULL once destroyed (or when its constructor failed) */
    struct set_box *level; /* the static set given by world:setLevel (also user value UV_LEVEL), or NULL */
    uintptr_t next_key;   /* the key of the next add */
    int busy;             /* running calls that may run Lua callbacks: destroy refuses meanwhile */
    int reading;          /* calls reading results out of buf (and cbuf) while they fill Lua tables */
    void *buf;            /* query results, grown as needed, freed with the world */
    size_t bufsize;
    void *cbuf;           /* world:pairs contacts, likewise */
    size_t cbufsize;
};

#define UV_SHAPES 1
#define UV_VALUES 2
#define UV_LEVEL 3 /* the world's level, a static set userdata, or nil */

/* A static set's box. The binding keeps the enabled flags (older than c2d_static_set_get_enabled) and a
 * scratch array for opts.responses in the userdata itself, after the box. The set userdata's one user
 * value is the table of its shapes' Lua values, keyed by the 1-based index (nil until one is given). */
typedef struct set_box {
    c2d_static_set *set;     /* NULL once destroyed (or when its constructor failed) */
    int n;                   /* the number of shapes */
    int levels;              /* the worlds that hold it as their level: set:destroy refuses meanwhile */
    c2d_response *responses; /* n entries */
    unsigned char *enabled;  /* n flags */
    void *buf;               /* query results (room for n), grown on first use, freed with the set */
    size_t bufsize;
    int reading;             /* queries reading results out of buf while they fill Lua tables */
} set_box;

#define UV_SET_VALUES 1

/* Room for the contacts of one move on the C stack. A move that meets more hands them to a buffer the
 * collector frees (garbage only for such rare moves); every contact is reported, from one run of the
 * move, so no callback is ever asked twice. */
#define CONTACTS 64

/* Where the core's _report calls put the records of one move or ball step (see keep_records). */
typedef struct record_sink {
    lua_State *L;
    int slot; /* stack slot for the buffer (the allocator function until then) */
    int n;
    c2d_contact_record *items; /* stack, or a userdata in slot */
    c2d_contact_record stack[CONTACTS];
} record_sink;

/* Returns from the calling binding with the Lua error for a failed C call. */
#define CHECK(L, call, first, roles)                                                                \
    do {                                                                                            \
        c2d_status st_ = (call);                                                                    \
        if (st_ != C2D_OK)                                                                          \
            return status_error(L, st_, first, roles);                                              \
    } while (0)

/* (x, y) as a vector. */
static inline c2d_vec2 vec(double x, double y)
{
    c2d_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* lua/errors.c: the Lua errors of failed statuses and bad option fields */
int status_error(lua_State *L, c2d_status st, int first, const char *roles);
int field_error(lua_State *L, int arg, const char *field, const char *what);
int field_typeerror(lua_State *L, int arg, const char *field, const char *expected);

/* lua/shapes.c: shapes on the Lua stack, constructors, reading and moving, metamethods */
const char *kind_name(const c2d_shape *s);
/* Pushes the n points as {x1, y1, x2, y2, ...}: into the table at stack index arg when there is one
 * (filled, and cleared past the end), else into a new table. */
int push_point_list(lua_State *L, const c2d_vec2 *pts, int n, int arg);
void *tobox(lua_State *L, int idx, int mt, size_t size);
shape_box *toshapebox(lua_State *L, int idx);
shape_box *checkshapebox(lua_State *L, int idx);
c2d_shape *checkshape(lua_State *L, int idx);
/* checkshape of a shape that moves through a set or a world: a chain or a concave polygon is refused
 * with "a chain or concave polygon cannot be a mover". */
c2d_shape *checkmover(lua_State *L, int idx);

int l_capsule(lua_State *L);
int l_box(lua_State *L);
int l_circle(lua_State *L);
int l_hull(lua_State *L);
int l_polygon(lua_State *L);
int l_rectangle(lua_State *L);
int l_segment(lua_State *L);
int l_chain(lua_State *L);
int l_concave(lua_State *L);
int l_parts(lua_State *L);
int l_part(lua_State *L);
int l_clone(lua_State *L);
int l_destroy(lua_State *L);
int m_gc(lua_State *L);
int l_angle(lua_State *L);
int l_bbox(lua_State *L);
int l_move(lua_State *L);
int l_position(lua_State *L);
int l_radius(lua_State *L);
int l_rotate(lua_State *L);
int l_setangle(lua_State *L);
int l_setposition(lua_State *L);
int l_settransform(lua_State *L);
int l_type(lua_State *L);
int l_version(lua_State *L);
int l_vertices(lua_State *L);
int m_tostring(lua_State *L);

/* lua/queries.c: pair queries and swept collision */
int push_toi(lua_State *L, const c2d_toi *toi, int index);

int l_closest(lua_State *L);
int l_collide(lua_State *L);
int l_contains(lua_State *L);
int l_distance(lua_State *L);
int l_overlaps(lua_State *L);
int l_raycast(lua_State *L);
int l_sweep(lua_State *L);
int l_sweepmotion(lua_State *L);

/* lua/moves.c: move options, contact records */
int response_of(lua_State *L, int idx);
/* What the opts table of a move or ball step asks: the options, opts.place (place the mover where the
 * move ends) and opts.dt (the time a move lasts, or 0 when not given: the untimed move). */
typedef struct move_args {
    c2d_move_options o;
    int place;
    double dt;
} move_args;
/* Reads opts = {response =, restitution =, friction =, responses =, place =, dt =} at arg (nil or
 * none: the defaults) into *a. For a static set, responses is its scratch for n responses and dflt the
 * call's default response. For a world, responses is the level's scratch, or NULL when it has none
 * (opts.responses is then refused), and response may also be a function, which is then stored at stack
 * index fnslot and *has_fn set. A ball step (movable 0) refuses place = true and any dt. */
void checkmoveargs(lua_State *L, int arg, int movable, move_args *a, c2d_response *responses, int n,
                   c2d_response dflt, int fnslot, int *has_fn);
int new_buffer(lua_State *L);
extern const char new_buffer_key;
void begin_records(lua_State *L, record_sink *k);
c2d_status keep_records(void *ctx, const c2d_contact_record *records, int count);
void record_at(lua_State *L, int out, int k, int nrec);
void set_number(lua_State *L, const char *key, double v);
void set_contact(lua_State *L, const c2d_contact_record *rec);
int opt_table(lua_State *L, int arg);
/* Places the mover, the shape at stack index idx, at p (and at angle when turned), and updates its
 * entry in the world it is in, if any: what opts.place asks of a move. Raises, changing nothing, when
 * the shape or its world cannot follow. */
void place_mover(lua_State *L, int idx, c2d_vec2 p, int turned, double angle);
/* A rigid motion from args arg .. arg + 4: vx, vy, w, then the pivot px, py (optional: 0, 0), each
 * optional when opt (the other shape's motion of sweepMotion: standing still); and the five numbers of
 * one pushed back. */
c2d_motion checkmotion(lua_State *L, int arg, int opt);
/* The answer of a cast: nil when nothing is met (returns 1); else pushes t, x, y, nx, ny (5), the caller
 * pushes what was met and its value, then push_cast_tail pushes px, py, depth (3). */
int push_cast_head(lua_State *L, const c2d_cast *c);
int push_cast_tail(lua_State *L, const c2d_cast *c);
int pushmotion(lua_State *L, const c2d_motion *m);

/* lua/sets.c: static sets */
c2d_vec2 checkdirection(lua_State *L, int arg);
set_box *checkset(lua_State *L, int idx);
int checkindex(lua_State *L, int arg, const set_box *b);

int l_staticset(lua_State *L);
int s_destroy(lua_State *L);
int s_gc(lua_State *L);
int s_tostring(lua_State *L);
int s_count(lua_State *L);
int s_setenabled(lua_State *L);
int s_settransform(lua_State *L);
int s_transform(lua_State *L);
int s_setvelocity(lua_State *L);
int s_setmotion(lua_State *L);
int s_advance(lua_State *L);
int s_motion(lua_State *L);
int s_velocity(lua_State *L);
int s_setoneway(lua_State *L);
int s_oneway(lua_State *L);
int s_isenabled(lua_State *L);
int s_isseam(lua_State *L);
int s_markneighbours(lua_State *L);
int s_sweep(lua_State *L);
int s_pushout(lua_State *L);
int s_cast(lua_State *L);
int s_move(lua_State *L);
int s_moveturning(lua_State *L);
int s_stepball(lua_State *L);
/* Fills contacts[1..n] (index 0: no table) with a static set's contact records, each with its shape's
 * value (the set is at stack index 1). */
void fill_set_contacts(lua_State *L, int contacts, const c2d_contact_record *c, int n);
/* What a step of many balls (set:stepBalls, world:stepBalls) reads of its arguments: the balls of the
 * flat array {x1, y1, vx1, vy1, r1, x2, ...} and their masses, in a scratch buffer the module keeps
 * between calls (no garbage), and the ball options of opts. */
typedef struct balls_args {
    c2d_ball *balls;
    double *masses; /* NULL without opts.masses */
    int n;
    c2d_balls_options bo;
    int buf; /* the buffer's stack index */
} balls_args;
/* The number of balls of the flat array at arg, or an argument error. */
int balls_count(lua_State *L, int arg);
/* Reads opts at index opts (a table, or nil: the defaults; once read, its slot holds opts.masses) and
 * the n balls of the array at arg into *a, the buffer left on the stack; raises for a bad number. */
void check_balls(lua_State *L, int arg, int opts, int n, balls_args *a);
/* Raises the error of a failed step (st) of balls at 2 for dt at 3, after giving the buffer back. */
int balls_error(lua_State *L, c2d_status st, double dt, const balls_args *a);
/* Writes each ball's position and velocity back into the array at arg. */
void put_balls(lua_State *L, int arg, const balls_args *a);
/* Gives the buffer back for the next call. */
void balls_done(lua_State *L, const balls_args *a);

/* lua/moves.c: a number field of an options table at arg, def when nil, checked to lie in [lo, hi] */
double number_field(lua_State *L, int arg, const char *key, const char *field, double def, double lo, double hi);

/* lua/character.c: the character mover, and what world:moveCharacter (lua/worldcalls.c) shares of it */
int s_movecharacter(lua_State *L);
/* A boolean field of an options or state table at arg: def when nil. */
int boolean_field(lua_State *L, int arg, const char *key, const char *field, int def);
/* The character options table at arg into *o; *place whether the call places the shape. */
void check_character_opts(lua_State *L, int arg, c2d_character_options *o, int *place);
/* The module's own state table of the shape at idx (made the first time): its stack index. */
int own_state(lua_State *L, int idx);
/* t[key] = on, for the table at the top of the stack. */
void set_flag(lua_State *L, const char *key, int on);

/* lua/setqueries.c: a static set's queries, the world's verbs */
int s_queryrect(lua_State *L);
int s_querypoint(lua_State *L);
int s_queryshape(lua_State *L);
int s_raycast(lua_State *L);
int s_raycastall(lua_State *L);
int s_stepballs(lua_State *L);

/* lua/setshapes.c: a static set's shapes as a game reads them: their Lua values, and their kind, pose and
 * vertices to draw */
void push_set_values(lua_State *L, int set);

int s_value(lua_State *L);
int s_setvalue(lua_State *L);
int s_shape(lua_State *L);
int s_vertices(lua_State *L);
int s_parts(lua_State *L);
int s_part(lua_State *L);

/* lua/worlds.c: worlds and their membership */
world_box *checkworld(lua_State *L, int idx);
int push_tables(lua_State *L, int w);
void free_buffers(world_box *wb);
void leave_world(lua_State *L, shape_box *b, int w);

int w_destroy(lua_State *L);
int w_gc(lua_State *L);
int w_tostring(lua_State *L);
int l_world(lua_State *L);
int w_add(lua_State *L);
int w_remove(lua_State *L);
int w_update(lua_State *L);
int w_has(lua_State *L);
int w_count(lua_State *L);
int w_value(lua_State *L);
int w_setvalue(lua_State *L);
int w_setbits(lua_State *L);
int w_setoneway(lua_State *L);
int w_oneway(lua_State *L);
int w_setmotion(lua_State *L);
int w_motion(lua_State *L);
int w_setvelocity(lua_State *L);
int w_velocity(lua_State *L);
int w_setenabled(lua_State *L);
int w_isenabled(lua_State *L);
int w_bits(lua_State *L);
int w_optimize(lua_State *L);
int w_setlevel(lua_State *L);
int w_level(lua_State *L);

/* lua/worldcalls.c: world calls that run Lua callbacks */
int w_queryrect(lua_State *L);
int w_querypoint(lua_State *L);
int w_queryshape(lua_State *L);
int w_raycast(lua_State *L);
int w_raycastall(lua_State *L);
int w_pairs(lua_State *L);
int w_move(lua_State *L);
int w_moveturning(lua_State *L);
int w_stepball(lua_State *L);
int w_stepballs(lua_State *L);
int w_cast(lua_State *L);
int w_pushout(lua_State *L);
int w_movecharacter(lua_State *L);

#if LUA_VERSION_NUM == 501
/* lua/ffi.c: the LuaJIT fast path */
void install_ffi(lua_State *L, int module);
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
