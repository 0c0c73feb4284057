/*
 * character.c - the character mover from Lua: set:moveCharacter(shape, dx, dy [, opts [, state]]), over
 * c2d_static_set_move_character. What the character stands on lives in a state table the caller keeps
 * (or, without one, in a table the module keeps per shape, weakly): both are filled again each call,
 * so a call makes no garbage.
 */
#include <math.h>
#include <string.h>

#include "binding.h"

/* The registry key of the module's states: a weak-keyed table, shape -> state table. */
static const char states_key = 0;

/* A boolean field of an options or state table at arg: def when nil. */
int boolean_field(lua_State *L, int arg, const char *key, const char *field, int def)
{
    int v = def;
    lua_getfield(L, arg, key);
    if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
            field_typeerror(L, arg, field, "boolean");
        v = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    return v;
}

/* opts = {upX =, upY =, maxSlope =, snap =, step =, dropThrough =, place =} at arg (nil or none: the
 * defaults) into *o; *place whether the call places the shape. */
void check_character_opts(lua_State *L, int arg, c2d_character_options *o, int *place)
{
    *o = c2d_character_options_default();
    *place = 0;
    if (lua_isnoneornil(L, arg))
        return;
    luaL_checktype(L, arg, LUA_TTABLE);
    o->up.x = number_field(L, arg, "upX", "opts.upX", 0.0, -C2D_MAX_COORDINATE, C2D_MAX_COORDINATE);
    o->up.y = number_field(L, arg, "upY", "opts.upY", 1.0, -C2D_MAX_COORDINATE, C2D_MAX_COORDINATE);
    if (o->up.x == 0 && o->up.y == 0)
        field_error(L, arg, "opts.upX, opts.upY", c2d_status_string(C2D_ERR_DEGENERATE));
    o->max_slope = number_field(L, arg, "maxSlope", "opts.maxSlope", o->max_slope, 0.0, 1.5707963267948966);
    if (!(o->max_slope < 1.5707963267948966))
        field_error(L, arg, "opts.maxSlope", c2d_status_string(C2D_ERR_RANGE));
    o->snap_distance = number_field(L, arg, "snap", "opts.snap", 0.0, 0.0, C2D_MAX_COORDINATE);
    o->step_height = number_field(L, arg, "step", "opts.step", 0.0, 0.0, C2D_MAX_COORDINATE);
    o->drop_through = boolean_field(L, arg, "dropThrough", "opts.dropThrough", 0);
    *place = boolean_field(L, arg, "place", "opts.place", 0);
}

/* The state table at arg into *s (n: the set's shapes, for state.index). */
static void check_state(lua_State *L, int arg, int n, c2d_character_state *s)
{
    memset(s, 0, sizeof *s);
    s->ground_index = -1;
    s->grounded = boolean_field(L, arg, "grounded", "state.grounded", 0);
    if (!s->grounded)
        return;
    lua_getfield(L, arg, "index");
    if (!lua_isnil(L, -1)) {
        double i;
        if (lua_type(L, -1) != LUA_TNUMBER)
            field_typeerror(L, arg, "state.index", "number");
        i = lua_tonumber(L, -1);
        if (!(i >= 1 && i <= n && i == floor(i)))
            field_error(L, arg, "state.index", lua_pushfstring(L, "shape index expected (1 to %d)", n));
        s->ground_index = (int)i - 1;
    }
    lua_pop(L, 1);
    s->ground_normal.x = number_field(L, arg, "nx", "state.nx", 0.0, -C2D_MAX_COORDINATE, C2D_MAX_COORDINATE);
    s->ground_normal.y = number_field(L, arg, "ny", "state.ny", 0.0, -C2D_MAX_COORDINATE, C2D_MAX_COORDINATE);
}

/* The module's own state table of the shape at idx, made the first time (the one allocation). */
int own_state(lua_State *L, int idx)
{
    lua_pushlightuserdata(L, (void *)&states_key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushstring(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushlightuserdata(L, (void *)&states_key);
        lua_pushvalue(L, -2);
        lua_rawset(L, LUA_REGISTRYINDEX);
    }
    lua_pushvalue(L, idx);
    lua_rawget(L, -2);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 16);
        lua_pushvalue(L, idx);
        lua_pushvalue(L, -2);
        lua_rawset(L, -4);
    }
    lua_remove(L, -2);
    return lua_gettop(L);
}

void set_flag(lua_State *L, const char *key, int on)
{
    lua_pushboolean(L, on);
    lua_setfield(L, -2, key);
}

/* set:moveCharacter(shape, dx, dy [, opts [, state [, contacts]]]) -> x, y, grounded, nx, ny, index, ceiling: the
 * character moved by (dx, dy) (its walk plus gravity for one frame): where its position ends, whether
 * it stands on walkable ground, the ground's normal and shape index (nil when not grounded), and
 * whether it hit a ceiling. state (a table the caller keeps per character; without it the module keeps
 * one per shape) is read for what it stood on and filled with what it stands on now and what happened:
 * grounded, index, nx, ny, px, py (where it touches the ground), vx, vy (the velocity of the ground's
 * surface there), value (its set:value), ceiling, wall,
 * steep, stepped, snapped, landed, count and snap (how far it stepped down onto the ground at the end,
 * straight down from where its walk ended). contacts, when given, receives the contacts of its moves
 * as set:move's. The shape is not moved unless opts.place. */
int s_movecharacter(lua_State *L)
{
    set_box *b = checkset(L, 1);
    c2d_shape *s = checkmover(L, 2);
    double dx = luaL_checknumber(L, 3), dy = luaL_checknumber(L, 4);
    c2d_character_options o;
    c2d_character_state cs;
    c2d_character_result r;
    c2d_vec2 p;
    int place, state, contacts = opt_table(L, 7);
    record_sink sink;
    lua_settop(L, 7);
    if (lua_isnil(L, 6)) {
        state = own_state(L, 2);
    } else {
        luaL_checktype(L, 6, LUA_TTABLE);
        state = 6;
    }
    check_character_opts(L, 5, &o, &place);
    check_state(L, state, b->n, &cs);
    begin_records(L, &sink);
    /* Reading the tables may have run metamethods: check the set and the shape again. */
    b = checkset(L, 1);
    s = checkmover(L, 2);
    CHECK(L, c2d_static_set_move_character(b->set, s, vec(dx, dy), &o, &cs, &r, contacts ? keep_records : NULL,
                                           contacts ? &sink : NULL), 2, "-cc");
    CHECK(L, c2d_shape_get_position(s, &p), 2, "");
    p = vec(p.x + r.displacement.x, p.y + r.displacement.y);
    if (place)
        place_mover(L, 2, p, 0, 0);
    lua_pushvalue(L, state);
    set_flag(L, "grounded", cs.grounded);
    if (cs.grounded)
        lua_pushinteger(L, (lua_Integer)cs.ground_index + 1);
    else
        lua_pushnil(L);
    lua_setfield(L, -2, "index");
    set_number(L, "nx", cs.ground_normal.x);
    set_number(L, "ny", cs.ground_normal.y);
    set_number(L, "px", cs.ground_point.x);
    set_number(L, "py", cs.ground_point.y);
    set_number(L, "vx", cs.ground_velocity.x);
    set_number(L, "vy", cs.ground_velocity.y);
    if (cs.grounded) {
        push_set_values(L, 1);
        if (lua_istable(L, -1)) {
            lua_rawgeti(L, -1, cs.ground_index + 1);
            lua_remove(L, -2);
        }
    } else {
        lua_pushnil(L);
    }
    lua_setfield(L, -2, "value");
    set_flag(L, "ceiling", (r.flags & C2D_CHARACTER_CEILING) != 0);
    set_flag(L, "wall", (r.flags & C2D_CHARACTER_WALL) != 0);
    set_flag(L, "steep", (r.flags & C2D_CHARACTER_STEEP) != 0);
    set_flag(L, "stepped", (r.flags & C2D_CHARACTER_STEPPED) != 0);
    set_flag(L, "snapped", (r.flags & C2D_CHARACTER_SNAPPED) != 0);
    set_flag(L, "landed", (r.flags & C2D_CHARACTER_LANDED) != 0);
    lua_pushinteger(L, r.count);
    lua_setfield(L, -2, "count");
    set_number(L, "snap", sqrt(r.snap.x * r.snap.x + r.snap.y * r.snap.y));
    lua_pop(L, 1);
    fill_set_contacts(L, contacts, sink.items, sink.n);
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    lua_pushboolean(L, cs.grounded);
    lua_pushnumber(L, cs.ground_normal.x);
    lua_pushnumber(L, cs.ground_normal.y);
    if (cs.grounded)
        lua_pushinteger(L, (lua_Integer)cs.ground_index + 1);
    else
        lua_pushnil(L);
    lua_pushboolean(L, (r.flags & C2D_CHARACTER_CEILING) != 0);
    return 7;
}
