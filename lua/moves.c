/*
 * moves.c - what the moves and ball steps of static sets (lua/sets.c) and worlds (lua/worldcalls.c)
 * share: reading their options table, the sink the core reports contact records to, and writing those
 * records into the caller's contacts table.
 */
#include <math.h>
#include <string.h>

#include "binding.h"

/* ---- options and contacts of moves and ball steps -------------------------------------------- */

/* Indexed by c2d_response; "ignore" stands for C2D_RESPONSE_NONE where that means "ignore". */
static const char *const response_names[] = {"ignore", "touch", "slide", "bounce", "cross"};
#define NRESPONSES ((int)(sizeof response_names / sizeof response_names[0]))

/* The response named by the string at idx, or -1 (also for a value that is not a string: no
 * conversion, so a number key is never turned into a string under lua_next). */
int response_of(lua_State *L, int idx)
{
    const char *name;
    int i;
    if (lua_type(L, idx) != LUA_TSTRING)
        return -1;
    name = lua_tostring(L, idx);
    for (i = 0; i < NRESPONSES; i++)
        if (strcmp(name, response_names[i]) == 0)
            return i;
    return -1;
}

/* The fields of an options table, in the order they are checked (so that of two bad fields, the same one
 * is named whatever the table's order). */
enum { K_RESPONSE, K_RESTITUTION, K_FRICTION, K_RESPONSES, K_PLACE, K_DT, NKEYS };
static const char *const option_keys[NKEYS] = {"response", "restitution", "friction", "responses", "place", "dt"};

/* Where the fields of the options table at arg are read from: a plain table (no metatable) is read in
 * one pass with lua_next, each field given copied to a stack slot (slot[k], 0 for a field not given),
 * which costs a move with options a visit of the fields given instead of a lookup of every field there
 * could be; a table with a metatable is read field by field, so that its __index answers as it always
 * did. */
typedef struct opts_reader {
    int arg;
    int plain;
    int slot[NKEYS];
} opts_reader;

static void read_opts(lua_State *L, int arg, opts_reader *r)
{
    int k;
    r->arg = arg;
    r->plain = 0;
    for (k = 0; k < NKEYS; k++)
        r->slot[k] = 0;
    if (lua_getmetatable(L, arg)) {
        lua_pop(L, 1);
        return;
    }
    r->plain = 1;
    lua_pushnil(L);
    while (lua_next(L, arg)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            const char *key = lua_tostring(L, -2);
            for (k = 0; k < NKEYS; k++)
                if (strcmp(key, option_keys[k]) == 0) {
                    /* the value stays where it is, under a copy of the key for lua_next */
                    luaL_checkstack(L, 2, "too many nested calls");
                    r->slot[k] = lua_gettop(L);
                    lua_pushvalue(L, -2);
                    break;
                }
            if (k < NKEYS)
                continue;
        }
        lua_pop(L, 1);
    }
}

/* Pushes field k of the options and returns 1, or pushes nothing and returns 0 when it is nil. */
static int push_opt(lua_State *L, const opts_reader *r, int k)
{
    if (r->plain) {
        if (r->slot[k] == 0)
            return 0;
        lua_pushvalue(L, r->slot[k]);
        return 1;
    }
    lua_getfield(L, r->arg, option_keys[k]);
    if (!lua_isnil(L, -1))
        return 1;
    lua_pop(L, 1);
    return 0;
}

/* A number field of a table at arg, def when nil, checked to lie in [lo, hi]. */
double number_field(lua_State *L, int arg, const char *key, const char *field, double def, double lo,
                    double hi)
{
    double v = def;
    lua_getfield(L, arg, key);
    if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TNUMBER)
            field_typeerror(L, arg, field, "number");
        v = lua_tonumber(L, -1);
        if (!isfinite(v))
            field_error(L, arg, field, c2d_status_string(C2D_ERR_NOT_FINITE));
        if (v < lo || v > hi)
            field_error(L, arg, field, c2d_status_string(C2D_ERR_RANGE));
    }
    lua_pop(L, 1);
    return v;
}

/* A number field of the options, def when nil, checked to lie in [lo, hi]. */
static double opt_number(lua_State *L, const opts_reader *r, int k, const char *field, double def, double lo,
                           double hi)
{
    double v = def;
    if (!push_opt(L, r, k))
        return v;
    if (lua_type(L, -1) != LUA_TNUMBER)
        field_typeerror(L, r->arg, field, "number");
    v = lua_tonumber(L, -1);
    if (!isfinite(v))
        field_error(L, r->arg, field, c2d_status_string(C2D_ERR_NOT_FINITE));
    if (v < lo || v > hi)
        field_error(L, r->arg, field, c2d_status_string(C2D_ERR_RANGE));
    lua_pop(L, 1);
    return v;
}

void checkmoveargs(lua_State *L, int arg, int movable, move_args *a, c2d_response *responses, int n,
                   c2d_response dflt, int fnslot, int *has_fn)
{
    opts_reader rd;
    int r, i, top = lua_gettop(L);
    luaL_checkstack(L, 8, "too many nested calls");
    c2d_move_options *o = &a->o;
    *o = c2d_move_options_default();
    a->place = 0;
    a->dt = 0;
    if (lua_isnoneornil(L, arg))
        return;
    luaL_checktype(L, arg, LUA_TTABLE);
    read_opts(L, arg, &rd);
    if (push_opt(L, &rd, K_RESPONSE)) {
        if (fnslot != 0 && lua_type(L, -1) == LUA_TFUNCTION) {
            lua_replace(L, fnslot);
            *has_fn = 1;
        } else {
            if (lua_type(L, -1) != LUA_TSTRING)
                field_typeerror(L, arg, "opts.response", fnslot != 0 ? "string or function" : "string");
            r = response_of(L, -1);
            if (r <= 0)
                field_error(L, arg, "opts.response", lua_pushfstring(L, "invalid response '%s'", lua_tostring(L, -1)));
            o->response = (c2d_response)r;
            lua_pop(L, 1);
        }
    }
    o->restitution = opt_number(L, &rd, K_RESTITUTION, "opts.restitution", 1.0, 0.0, 1.0);
    o->friction = opt_number(L, &rd, K_FRICTION, "opts.friction", 0.0, 0.0, C2D_MAX_COORDINATE);
    if (push_opt(L, &rd, K_RESPONSES)) {
        int t = lua_gettop(L);
        if (responses == NULL)
            field_error(L, arg, "opts.responses", "not supported by a world (make opts.response a function)");
        if (!lua_istable(L, t))
            field_typeerror(L, arg, "opts.responses", "table");
        for (i = 0; i < n; i++)
            responses[i] = o->response != C2D_RESPONSE_NONE ? o->response : dflt;
        lua_pushnil(L);
        while (lua_next(L, t)) {
            double k = lua_type(L, -2) == LUA_TNUMBER ? lua_tonumber(L, -2) : 0;
            if (!(k >= 1 && k <= n && k == floor(k)))
                field_error(L, arg, "opts.responses", lua_pushfstring(L, "keys must be shape indices (1 to %d)", n));
            r = response_of(L, -1);
            if (r < 0) {
                /* The message first, from the value at the top of the stack, which pushing the field's
                 * name covers: as two arguments of one call, their order would be the compiler's (gcc
                 * takes them last to first on x86-64, first to last on ARM64). */
                const char *what = lua_type(L, -1) == LUA_TSTRING
                                       ? lua_pushfstring(L, "invalid response '%s'", lua_tostring(L, -1))
                                       : lua_pushfstring(L, "string expected, got %s", luaL_typename(L, -1));
                field_error(L, arg, lua_pushfstring(L, "opts.responses[%d]", (int)k), what);
            }
            responses[(int)k - 1] = (c2d_response)r;
            lua_pop(L, 1);
        }
        o->responses = responses;
        lua_pop(L, 1);
    }
    /* opts.place: whether the call places the mover where the move ends. A ball step has no shape to
     * place (movable 0): a true place is an error there rather than a promise quietly not kept. */
    if (push_opt(L, &rd, K_PLACE)) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
            field_typeerror(L, arg, "opts.place", "boolean");
        a->place = lua_toboolean(L, -1);
        if (a->place && !movable)
            field_error(L, arg, "opts.place", "a ball step has no shape to place (it returns the ball)");
        lua_pop(L, 1);
    }
    /* opts.dt: the time a move lasts; a ball step takes its time as an argument. */
    if (push_opt(L, &rd, K_DT)) {
        if (!movable)
            field_error(L, arg, "opts.dt", "a ball step's time is its dt argument");
        if (lua_type(L, -1) != LUA_TNUMBER)
            field_typeerror(L, arg, "opts.dt", "number");
        a->dt = lua_tonumber(L, -1);
        if (!isfinite(a->dt))
            field_error(L, arg, "opts.dt", c2d_status_string(C2D_ERR_NOT_FINITE));
        if (!(a->dt > 0) || a->dt > C2D_MAX_COORDINATE)
            field_error(L, arg, "opts.dt", "must be a positive time");
    }
    lua_settop(L, top);
}

/* A userdata of lua_tointeger(L, 1) bytes: run under lua_pcall by keep_records. */
int new_buffer(lua_State *L)
{
    lua_newuserdata(L, (size_t)lua_tointeger(L, 1));
    return 1;
}

/* The registry key of new_buffer, stored there once by luaopen_collide2d: fetching it allocates
 * nothing (pushing a C function would make a closure, garbage, under Lua 5.1). */
const char new_buffer_key = 0;

/* Reserves the sink's stack slot (before the core call: this may raise, the core must not see it). */
void begin_records(lua_State *L, record_sink *k)
{
    luaL_checkstack(L, 4, "too many nested calls");
    k->L = L;
    k->n = 0;
    k->items = k->stack;
    lua_pushlightuserdata(L, (void *)&new_buffer_key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    k->slot = lua_gettop(L);
}

/* The core's c2d_records_fn: copies every record. Called from inside the core, so nothing here may
 * raise a Lua error: a buffer beyond the stack's is made under lua_pcall. */
c2d_status keep_records(void *ctx, const c2d_contact_record *records, int count)
{
    record_sink *k = (record_sink *)ctx;
    lua_State *L = k->L;
    if (count > CONTACTS) {
        lua_pushvalue(L, k->slot);
        lua_pushinteger(L, (lua_Integer)count * (lua_Integer)sizeof *records);
        if (lua_pcall(L, 1, 1, 0) != 0) {
            lua_pop(L, 1);
            return C2D_ERR_NO_MEMORY;
        }
        k->items = (c2d_contact_record *)lua_touserdata(L, -1);
        lua_replace(L, k->slot);
    }
    if (count > 0)
        memcpy(k->items, records, (size_t)count * sizeof *records);
    k->n = count;
    return C2D_OK;
}

/* Pushes out[k] when it is a table, else a new table with room for nrec fields, stored as out[k]:
 * tables the caller hands in are filled again, not replaced, so a reused list makes no garbage. */
void record_at(lua_State *L, int out, int k, int nrec)
{
    lua_rawgeti(L, out, k);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_createtable(L, 0, nrec);
        lua_pushvalue(L, -1);
        lua_rawseti(L, out, k);
    }
}

void set_number(lua_State *L, const char *key, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, key);
}

/* Fills the record at the top of the stack with one contact's when, where, normal and response, and
 * where the mover was and how it went on. */
void set_contact(lua_State *L, const c2d_contact_record *rec)
{
    const c2d_sweep_contact *c = &rec->contact;
    int r = (int)c->response;
    set_number(L, "moverX", rec->position.x);
    set_number(L, "moverY", rec->position.y);
    set_number(L, "vx", rec->velocity.x);
    set_number(L, "vy", rec->velocity.y);
    set_number(L, "t", c->t);
    set_number(L, "x", c->point.x);
    set_number(L, "y", c->point.y);
    set_number(L, "nx", c->normal.x);
    set_number(L, "ny", c->normal.y);
    lua_pushstring(L, r >= 0 && r < NRESPONSES ? response_names[r] : "ignore");
    lua_setfield(L, -2, "response");
    lua_pushboolean(L, c->pushed_out);
    lua_setfield(L, -2, "pushedOut");
}

void place_mover(lua_State *L, int idx, c2d_vec2 p, int turned, double angle)
{
    shape_box *sb = checkshapebox(L, idx);
    world_box *wb = sb->world;
    c2d_vec2 old_p = vec(0, 0);
    double old_angle = 0;
    c2d_status st;
    if (sb->shape == NULL)
        luaL_error(L, "attempt to use a destroyed shape");
    c2d_shape_get_position(sb->shape, &old_p);
    c2d_shape_get_angle(sb->shape, &old_angle);
    st = turned ? c2d_shape_set_transform(sb->shape, p, angle) : c2d_shape_set_position(sb->shape, p);
    if (st == C2D_OK && wb != NULL && wb->world != NULL && (st = c2d_world_update(wb->world, sb->id)) != C2D_OK)
        c2d_shape_set_transform(sb->shape, old_p, old_angle); /* the world could not follow: nothing moves */
    if (st != C2D_OK)
        status_error(L, st, idx, "-cc");
}

/* The contacts table argument: its index, or 0 when none was given. */
int opt_table(lua_State *L, int arg)
{
    if (lua_isnoneornil(L, arg))
        return 0;
    luaL_checktype(L, arg, LUA_TTABLE);
    return arg;
}

c2d_motion checkmotion(lua_State *L, int arg, int opt)
{
    c2d_motion m;
    m.velocity = opt ? vec(luaL_optnumber(L, arg, 0.0), luaL_optnumber(L, arg + 1, 0.0))
                     : vec(luaL_checknumber(L, arg), luaL_checknumber(L, arg + 1));
    m.angular_velocity = opt ? luaL_optnumber(L, arg + 2, 0.0) : luaL_checknumber(L, arg + 2);
    m.pivot = vec(luaL_optnumber(L, arg + 3, 0.0), luaL_optnumber(L, arg + 4, 0.0));
    return m;
}

int pushmotion(lua_State *L, const c2d_motion *m)
{
    lua_pushnumber(L, m->velocity.x);
    lua_pushnumber(L, m->velocity.y);
    lua_pushnumber(L, m->angular_velocity);
    lua_pushnumber(L, m->pivot.x);
    lua_pushnumber(L, m->pivot.y);
    return 5;
}

int push_cast_head(lua_State *L, const c2d_cast *c)
{
    if (c->state == C2D_CAST_NONE) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, c->t);
    lua_pushnumber(L, c->position.x);
    lua_pushnumber(L, c->position.y);
    lua_pushnumber(L, c->normal.x);
    lua_pushnumber(L, c->normal.y);
    return 5;
}

int push_cast_tail(lua_State *L, const c2d_cast *c)
{
    lua_pushnumber(L, c->point.x);
    lua_pushnumber(L, c->point.y);
    lua_pushnumber(L, c->depth);
    return 3;
}
