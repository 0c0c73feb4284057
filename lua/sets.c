/*
 * sets.c - static sets from Lua: collide2d.staticset and the set's methods (placing, enabling and
 * moving its shapes, one-way shapes, seams, sweeps, push-out, moves and ball steps).
 *
 * A static set copies its shapes, so it holds no Lua values.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

/* ---- static sets ------------------------------------------------------------------------------- */

static size_t set_box_size(int n)
{
    return sizeof(set_box) + (size_t)n * (sizeof(c2d_response) + 1);
}

static set_box *tosetbox(lua_State *L, int idx)
{
    int same;
    set_box *b;
    if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx))
        return NULL;
    same = lua_rawequal(L, -1, SET_MT);
    lua_pop(L, 1);
    if (!same || lua_rawlen(L, idx) < sizeof(set_box))
        return NULL;
    b = (set_box *)lua_touserdata(L, idx);
    return lua_rawlen(L, idx) == set_box_size(b->n) ? b : NULL;
}

static set_box *checksetbox(lua_State *L, int idx)
{
    set_box *b = tosetbox(L, idx);
    if (b == NULL)
        luaL_typeerror(L, idx, SET_NAME);
    return b;
}

set_box *checkset(lua_State *L, int idx)
{
    set_box *b = checksetbox(L, idx);
    if (b->set == NULL)
        luaL_error(L, "attempt to use a destroyed static set");
    return b;
}

/* The 1-based shape index at arg as the C index. */
int checkindex(lua_State *L, int arg, const set_box *b)
{
    lua_Number i = luaL_checknumber(L, arg);
    if (!(i >= 1 && i <= b->n && i == floor(i)))
        luaL_argerror(L, arg, lua_pushfstring(L, "shape index expected (1 to %d)", b->n));
    return (int)i - 1;
}

#define STACK_SHAPES 64

/* collide2d.staticset(shapes [, {seamTolerance = n, autoSeams = bool}]) -> set: copies of the shapes
 * of the array; index i of the set is shapes[i]. */
int l_staticset(lua_State *L)
{
    const c2d_shape *stack[STACK_SHAPES];
    const c2d_shape **shapes = stack;
    c2d_static_set_options opts;
    set_box *b;
    size_t len;
    int n, i;
    c2d_status st;
    luaL_checktype(L, 1, LUA_TTABLE);
    memset(&opts, 0, sizeof opts);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        lua_getfield(L, 2, "seamTolerance");
        if (!lua_isnil(L, -1)) {
            if (lua_type(L, -1) != LUA_TNUMBER)
                field_typeerror(L, 2, "seamTolerance", "number");
            opts.seam_tolerance = lua_tonumber(L, -1);
        }
        lua_getfield(L, 2, "autoSeams");
        if (!lua_isnil(L, -1)) {
            if (lua_type(L, -1) != LUA_TBOOLEAN)
                field_typeerror(L, 2, "autoSeams", "boolean");
            opts.no_auto_seams = !lua_toboolean(L, -1);
        }
        lua_pop(L, 2);
    }
    lua_settop(L, 2);
    len = (size_t)lua_rawlen(L, 1);
    if (len > 0x1000000)
        return luaL_argerror(L, 1, c2d_status_string(C2D_ERR_RANGE));
    n = (int)len;
    /* Allocate first: an allocation may run a finalizer, which could destroy a shape of the list. */
    b = (set_box *)lua_newuserdatauv(L, set_box_size(n), 1);
    b->set = NULL;
    b->n = n;
    b->levels = 0;
    b->buf = NULL;
    b->bufsize = 0;
    b->reading = 0;
    b->responses = (c2d_response *)(void *)(b + 1);
    b->enabled = (unsigned char *)(b->responses + n);
    for (i = 0; i < n; i++) {
        b->responses[i] = C2D_RESPONSE_NONE;
        b->enabled[i] = 1;
    }
    lua_pushvalue(L, SET_MT);
    lua_setmetatable(L, 3);
    if (n > STACK_SHAPES)
        shapes = (const c2d_shape **)lua_newuserdata(L, (size_t)n * sizeof *shapes);
    for (i = 0; i < n; i++) {
        shape_box *sb;
        lua_rawgeti(L, 1, i + 1);
        sb = toshapebox(L, -1);
        if (sb == NULL)
            return luaL_argerror(L, 1, lua_pushfstring(L, SHAPE_NAME " expected at index %d, got %s", i + 1,
                                                       luaL_typename(L, -1)));
        if (sb->shape == NULL)
            return luaL_argerror(L, 1, lua_pushfstring(L, "destroyed shape at index %d", i + 1));
        shapes[i] = sb->shape;
        lua_pop(L, 1);
    }
    st = c2d_static_set_new(shapes, n, &opts, &b->set);
    if (st == C2D_ERR_NOT_FINITE || st == C2D_ERR_SIZE || st == C2D_ERR_RANGE)
        return field_error(L, 2, "seamTolerance", c2d_status_string(st));
    if (st != C2D_OK)
        return status_error(L, st, 1, "-");
    lua_settop(L, 3);
    return 1;
}

/* __gc: frees the set. A world that holds it as its level is unreachable too (its user value holds the
 * set), so nothing can call through it any more. */
int s_gc(lua_State *L)
{
    set_box *b = checksetbox(L, 1);
    c2d_static_set_destroy(b->set);
    b->set = NULL;
    /* The collector finalizes only a set no query is reading (a query holds it on its stack). */
    free(b->buf);
    b->buf = NULL;
    b->bufsize = 0;
    return 0;
}

/* set:destroy(), also __close: frees the set now; safe to call any number of times, but not while a
 * world holds it as its level (the world reads it in every move). */
int s_destroy(lua_State *L)
{
    set_box *b = checksetbox(L, 1);
    if (b->set != NULL && b->levels > 0)
        return luaL_error(L, "attempt to destroy a static set that is a world's level (world:setLevel(nil) first)");
    c2d_static_set_destroy(b->set);
    b->set = NULL;
    if (b->reading == 0) { /* else the query reading it frees it when done (setqueries.c) */
        free(b->buf);
        b->buf = NULL;
        b->bufsize = 0;
    }
    lua_pushnil(L);
    lua_setiuservalue(L, 1, UV_SET_VALUES); /* its shapes' values go with it */
    return 0;
}

/* "collide2d.staticset (8 shapes, 0x...)" or "collide2d.staticset (destroyed)". */
int s_tostring(lua_State *L)
{
    set_box *b = checksetbox(L, 1);
    if (b->set == NULL)
        lua_pushliteral(L, SET_NAME " (destroyed)");
    else
        lua_pushfstring(L, SET_NAME " (%d shapes, %p)", b->n, (void *)b->set);
    return 1;
}

/* set:count() -> the number of shapes, enabled or not. */
int s_count(lua_State *L)
{
    int n;
    CHECK(L, c2d_static_set_get_count(checkset(L, 1)->set, &n), 1, "");
    lua_pushinteger(L, n);
    return 1;
}

/* set:setEnabled(i, enabled) -> set. */
int s_setenabled(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    int on;
    luaL_checktype(L, 3, LUA_TBOOLEAN);
    on = lua_toboolean(L, 3);
    CHECK(L, c2d_static_set_set_enabled(b->set, i, on), 2, "-");
    b->enabled[i] = (unsigned char)on;
    lua_settop(L, 1);
    return 1;
}

/* set:setTransform(i, x, y [, angle]) -> set: re-places shape i (angle defaults to its current one). */
int s_settransform(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    double x = luaL_checknumber(L, 3), y = luaL_checknumber(L, 4), angle;
    if (lua_isnoneornil(L, 5))
        CHECK(L, c2d_static_set_get_transform(b->set, i, NULL, &angle), 2, "");
    else
        angle = luaL_checknumber(L, 5);
    CHECK(L, c2d_static_set_set_transform(b->set, i, vec(x, y), angle), 3, "cca");
    lua_settop(L, 1);
    return 1;
}

/* set:transform(i) -> x, y, angle: where shape i stands now. */
int s_transform(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    c2d_vec2 p;
    double angle;
    CHECK(L, c2d_static_set_get_transform(b->set, i, &p, &angle), 2, "");
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    lua_pushnumber(L, angle);
    return 3;
}

/* set:setVelocity(i, vx, vy) -> set: shape i moves at (vx, vy) during later moves and ball steps. */
int s_setvelocity(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    double vx = luaL_checknumber(L, 3), vy = luaL_checknumber(L, 4);
    CHECK(L, c2d_static_set_set_velocity(b->set, i, vec(vx, vy)), 3, "cc");
    lua_settop(L, 1);
    return 1;
}

/* set:velocity(i) -> vx, vy. */
int s_velocity(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    c2d_vec2 v;
    CHECK(L, c2d_static_set_get_velocity(b->set, i, &v), 2, "");
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    return 2;
}

/* set:setMotion(i, vx, vy, w [, px, py]) -> set: shape i moves at (vx, vy) and turns at w radians per
 * unit of time about its own point (px, py) (in its own frame; default its position). */
int s_setmotion(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    c2d_motion m = checkmotion(L, 3, 0);
    CHECK(L, c2d_static_set_set_motion(b->set, i, &m), 3, "ccccc");
    lua_settop(L, 1);
    return 1;
}

/* set:advance(dt) -> set: every shape with a motion re-placed where it takes it in dt. */
int s_advance(lua_State *L)
{
    set_box *b = checkset(L, 1);
    double dt = luaL_checknumber(L, 2);
    CHECK(L, c2d_static_set_advance(b->set, dt), 2, "t");
    lua_settop(L, 1);
    return 1;
}

/* set:motion(i) -> vx, vy, w, px, py. */
int s_motion(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    c2d_motion m;
    CHECK(L, c2d_static_set_get_motion(b->set, i, &m), 2, "");
    return pushmotion(L, &m);
}

/* The one-way direction at args arg and arg + 1: nil (or nothing) for none. A zero direction is an
 * error: it says no side, and a caller who computed it meant one. */
c2d_vec2 checkdirection(lua_State *L, int arg)
{
    if (lua_isnoneornil(L, arg) && lua_isnoneornil(L, arg + 1))
        return vec(0, 0);
    c2d_vec2 d = vec(luaL_checknumber(L, arg), luaL_checknumber(L, arg + 1));
    if (d.x == 0 && d.y == 0)
        luaL_argerror(L, arg, "direction (0, 0) has no side: leave it out to make the shape solid again");
    return d;
}

/* set:setOneWay(i, dx, dy) -> set: shape i blocks only movers coming from the side (dx, dy) points
 * to; set:setOneWay(i) (or 0, 0) makes it solid from every side again. */
int s_setoneway(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    c2d_vec2 d = checkdirection(L, 3);
    CHECK(L, c2d_static_set_set_one_way(b->set, i, d), 3, "cc");
    lua_settop(L, 1);
    return 1;
}

/* set:oneWay(i) -> dx, dy (a unit vector), or nil when shape i blocks from every side. */
int s_oneway(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    c2d_vec2 d;
    CHECK(L, c2d_static_set_get_one_way(b->set, i, &d), 2, "");
    if (d.x == 0 && d.y == 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, d.x);
    lua_pushnumber(L, d.y);
    return 2;
}

/* set:isEnabled(i) -> boolean. */
int s_isenabled(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    lua_pushboolean(L, b->enabled[i]);
    return 1;
}

/* set:isSeam(i, e) -> boolean: is edge e (from vertex e to vertex e + 1 of shape:vertices()) of shape
 * i hidden inside the union of the set? */
int s_isseam(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b), seam;
    lua_Number e = luaL_checknumber(L, 3);
    c2d_status st;
    if (!(e >= 1 && e <= INT_MAX && e == floor(e)))
        return luaL_argerror(L, 3, "edge index expected (1 to the shape's edge count)");
    st = c2d_static_set_is_seam(b->set, i, (int)e - 1, &seam);
    if (st == C2D_ERR_RANGE)
        return luaL_argerror(L, 3, "edge index expected (1 to the shape's edge count)");
    if (st != C2D_OK)
        return status_error(L, st, 1, "");
    lua_pushboolean(L, seam);
    return 1;
}

/* set:markNeighbours(i, j, tolerance) -> set. */
int s_markneighbours(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b), j = checkindex(L, 3, b);
    double tol = luaL_checknumber(L, 4);
    if (i == j)
        return luaL_argerror(L, 3, "a shape cannot be its own neighbour");
    CHECK(L, c2d_static_set_mark_neighbours(b->set, i, j, tol), 2, "--s");
    lua_settop(L, 1);
    return 1;
}

/* set:sweep(shape, dx, dy) -> nil, or t, nx, ny, px, py, index, overlapping [, depth]: the first
 * contact of the shape moving by (dx, dy) with the set (normal from the shape to the set's shape). */
int s_sweep(lua_State *L)
{
    set_box *b = checkset(L, 1);
    c2d_shape *s = checkmover(L, 2);
    double dx = luaL_checknumber(L, 3), dy = luaL_checknumber(L, 4);
    c2d_toi toi;
    int index;
    CHECK(L, c2d_static_set_sweep(b->set, s, vec(dx, dy), &toi, &index), 2, "-cc");
    return push_toi(L, &toi, index >= 0 ? index : 0);
}

/* set:pushOut(shape) -> dx, dy: the displacement that takes the shape out of the set (0, 0 if none). */
int s_pushout(lua_State *L)
{
    set_box *b = checkset(L, 1);
    c2d_shape *s = checkmover(L, 2);
    c2d_vec2 d;
    CHECK(L, c2d_static_set_push_out(b->set, s, &d), 2, "");
    lua_pushnumber(L, d.x);
    lua_pushnumber(L, d.y);
    return 2;
}

/* set:cast(shape, dx, dy) -> nil, or t, x, y, nx, ny, index, value, px, py, depth: the first contact of
 * the shape moving by (dx, dy) with the set, the normal towards the shape, (x, y) where its position is
 * then. */
int s_cast(lua_State *L)
{
    set_box *b = checkset(L, 1);
    c2d_shape *s = checkmover(L, 2);
    double dx = luaL_checknumber(L, 3), dy = luaL_checknumber(L, 4);
    c2d_cast c;
    int n;
    CHECK(L, c2d_static_set_cast(b->set, s, vec(dx, dy), &c), 2, "-cc");
    n = push_cast_head(L, &c);
    if (c.state == C2D_CAST_NONE)
        return n;
    lua_pushinteger(L, (lua_Integer)c.index + 1);
    push_set_values(L, 1);
    if (lua_istable(L, -1))
        lua_rawgeti(L, -1, c.index + 1);
    else
        lua_pushnil(L);
    lua_remove(L, -2);
    return n + 2 + push_cast_tail(L, &c);
}

/* Fills contacts[1..n] (index 0: no table) with a static set's contacts, each with its shape's value
 * (the set is at stack index 1). */
void fill_set_contacts(lua_State *L, int contacts, const c2d_contact_record *c, int n)
{
    int k, values;
    if (contacts == 0)
        return;
    push_set_values(L, 1);
    values = lua_istable(L, -1) ? lua_gettop(L) : 0;
    for (k = 0; k < n; k++) {
        record_at(L, contacts, k + 1, 13);
        lua_pushinteger(L, (lua_Integer)c[k].contact.index + 1);
        lua_setfield(L, -2, "index");
        if (values)
            lua_rawgeti(L, values, c[k].contact.index + 1);
        else
            lua_pushnil(L);
        lua_setfield(L, -2, "value");
        set_contact(L, &c[k]);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* set:move(shape, dx, dy [, opts [, contacts]]) -> x, y, n: where the shape's position would end, and
 * the number of contacts met, all of them written to contacts. The shape is not moved. */
int s_move(lua_State *L)
{
    set_box *b = checkset(L, 1);
    c2d_shape *s = checkmover(L, 2);
    double dx = luaL_checknumber(L, 3), dy = luaL_checknumber(L, 4), dt;
    int contacts = opt_table(L, 6), n, place;
    c2d_move_options o;
    move_args ma;
    c2d_move_result res;
    record_sink sink;
    c2d_vec2 p;
    lua_settop(L, 6);
    checkmoveargs(L, 5, 1, &ma, b->responses, b->n, C2D_RESPONSE_SLIDE, 0, NULL);
    o = ma.o;
    place = ma.place;
    dt = ma.dt;
    begin_records(L, &sink);
    /* Reading opts may have run metamethods: check the set and the shape again. */
    b = checkset(L, 1);
    s = checkmover(L, 2);
    if (dt > 0)
        CHECK(L, c2d_static_set_move_timed_report(b->set, s, vec(dx, dy), dt, &o, &res, keep_records, &sink), 2, "-cc");
    else if (contacts)
        CHECK(L, c2d_static_set_move_report(b->set, s, vec(dx, dy), &o, &res, keep_records, &sink), 2, "-cc");
    else
        CHECK(L, c2d_static_set_move(b->set, s, vec(dx, dy), &o, &res, NULL, 0), 2, "-cc");
    CHECK(L, c2d_shape_get_position(s, &p), 2, "");
    p = vec(p.x + res.displacement.x, p.y + res.displacement.y);
    if (place)
        place_mover(L, 2, p, 0, 0);
    n = res.count;
    fill_set_contacts(L, contacts, sink.items, sink.n);
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    lua_pushinteger(L, n);
    return 3;
}

/* set:moveTurning(shape, dx, dy, angle [, px, py [, opts [, contacts]]]) -> x, y, angle, n: a move of the
 * shape that also turns by angle about its pivot (px, py) in its own frame (default 0, 0: its
 * position), its pivot moving by (dx, dy): where its position and angle would end, and the number of
 * contacts. The shape is not moved. */
int s_moveturning(lua_State *L)
{
    set_box *b = checkset(L, 1);
    c2d_shape *s = checkmover(L, 2);
    c2d_motion m = checkmotion(L, 3, 0);
    double turned = 0, a, dt;
    int contacts = opt_table(L, 9), n, place;
    c2d_move_options o;
    move_args ma;
    c2d_move_result res;
    record_sink sink;
    c2d_vec2 p;
    lua_settop(L, 9);
    checkmoveargs(L, 8, 1, &ma, b->responses, b->n, C2D_RESPONSE_SLIDE, 0, NULL);
    o = ma.o;
    place = ma.place;
    dt = ma.dt;
    begin_records(L, &sink);
    /* Reading opts may have run metamethods: check the set and the shape again. */
    b = checkset(L, 1);
    s = checkmover(L, 2);
    if (dt > 0) {
        /* (dx, dy) and angle are the whole move's, as without dt; the C call takes them per unit of time. */
        c2d_motion per_unit = m;
        per_unit.velocity = vec(m.velocity.x / dt, m.velocity.y / dt);
        per_unit.angular_velocity = m.angular_velocity / dt;
        CHECK(L, c2d_static_set_move_turning_timed_report(b->set, s, &per_unit, dt, &o, &res, &turned, keep_records,
                                                           &sink),
              2, "-cccccc");
    } else if (contacts)
        CHECK(L, c2d_static_set_move_turning_report(b->set, s, &m, &o, &res, &turned, keep_records, &sink), 2,
              "-cccccc");
    else
        CHECK(L, c2d_static_set_move_turning(b->set, s, &m, &o, &res, &turned, NULL, 0), 2, "-cccccc");
    CHECK(L, c2d_shape_get_position(s, &p), 2, "");
    CHECK(L, c2d_shape_get_angle(s, &a), 2, "");
    p = vec(p.x + res.displacement.x, p.y + res.displacement.y);
    a += turned;
    if (place)
        place_mover(L, 2, p, 1, a);
    n = res.count;
    fill_set_contacts(L, contacts, sink.items, sink.n);
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    lua_pushnumber(L, a);
    lua_pushinteger(L, n);
    return 4;
}

/* set:stepBall(x, y, vx, vy, r, dt [, opts [, contacts]]) -> x, y, vx, vy, n: a ball moved through the
 * set for dt (default response: bounce). */
int s_stepball(lua_State *L)
{
    set_box *b = checkset(L, 1);
    c2d_ball ball;
    double dt;
    int contacts = opt_table(L, 9), n;
    c2d_move_options o;
    move_args ma;
    c2d_move_result res;
    record_sink sink;
    ball.position = vec(luaL_checknumber(L, 2), luaL_checknumber(L, 3));
    ball.velocity = vec(luaL_checknumber(L, 4), luaL_checknumber(L, 5));
    ball.radius = luaL_checknumber(L, 6);
    dt = luaL_checknumber(L, 7);
    lua_settop(L, 9);
    checkmoveargs(L, 8, 0, &ma, b->responses, b->n, C2D_RESPONSE_BOUNCE, 0, NULL);
    o = ma.o;
    begin_records(L, &sink);
    b = checkset(L, 1); /* reading opts may have run metamethods */
    if (contacts)
        CHECK(L, c2d_static_set_step_ball_report(b->set, &ball, dt, &o, &res, keep_records, &sink), 2, "ccccsn");
    else
        CHECK(L, c2d_static_set_step_ball(b->set, &ball, dt, &o, &res, NULL, 0), 2, "ccccsn");
    n = res.count;
    fill_set_contacts(L, contacts, sink.items, sink.n);
    lua_pushnumber(L, ball.position.x);
    lua_pushnumber(L, ball.position.y);
    lua_pushnumber(L, ball.velocity.x);
    lua_pushnumber(L, ball.velocity.y);
    lua_pushinteger(L, n);
    return 5;
}

/* ---- many balls at once ------------------------------------------------------------------------- */

/* The registry's scratch buffer of set:stepBalls: balls and masses for the C call, kept between calls
 * (grown, never shrunk) so that a step of a thousand balls makes no garbage. A call takes it out of the
 * registry while it uses it (balls_buffer_return puts it back), so that a call made meanwhile (from a
 * finalizer that an allocation runs) makes one of its own instead of sharing it; one cut short by an
 * error leaves the next call to make a new one. No state outside the Lua state. */
static const char balls_buffer_key = 0;

/* Room for need bytes, the buffer left on the stack. */
static void *balls_buffer(lua_State *L, size_t need)
{
    lua_pushlightuserdata(L, (void *)&balls_buffer_key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_type(L, -1) != LUA_TUSERDATA || lua_rawlen(L, -1) < need) {
        lua_pop(L, 1);
        lua_newuserdata(L, need + need / 2);
    }
    lua_pushlightuserdata(L, (void *)&balls_buffer_key);
    lua_pushnil(L);
    lua_rawset(L, LUA_REGISTRYINDEX);
    return lua_touserdata(L, -1);
}

/* Puts the buffer at stack index idx back in the registry for the next call. */
static void balls_buffer_return(lua_State *L, int idx)
{
    lua_pushlightuserdata(L, (void *)&balls_buffer_key);
    lua_pushvalue(L, idx);
    lua_rawset(L, LUA_REGISTRYINDEX);
}

/* A number of opts (nil: def), finite and within [lo, hi]. */
static double ball_opt(lua_State *L, int arg, const char *key, const char *field, double def, double lo, double hi)
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

/* The n-th number of the table at arg (1-based), or an argument error naming it. */
static double array_number(lua_State *L, int arg, const char *name, int k)
{
    double v;
    lua_rawgeti(L, arg, k);
    if (lua_type(L, -1) != LUA_TNUMBER)
        luaL_argerror(L, arg, lua_pushfstring(L, "%s[%d]: number expected, got %s", name, k, luaL_typename(L, -1)));
    v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* Fills contacts[1..n] with the records of a step of many balls: ball (which ball, 1-based), and
 * either index and value (the level's shape) or other (the other ball, 1-based). */
static void fill_balls_contacts(lua_State *L, int contacts, const c2d_contact_record *c, int n)
{
    int k, values;
    if (contacts == 0)
        return;
    push_set_values(L, 1);
    values = lua_istable(L, -1) ? lua_gettop(L) : 0;
    for (k = 0; k < n; k++) {
        int i = c[k].contact.index;
        record_at(L, contacts, k + 1, 14);
        lua_pushinteger(L, (lua_Integer)c[k].id);
        lua_setfield(L, -2, "ball");
        if (i >= 0) {
            lua_pushinteger(L, (lua_Integer)i + 1);
            lua_setfield(L, -2, "index");
            if (values)
                lua_rawgeti(L, values, i + 1);
            else
                lua_pushnil(L);
            lua_setfield(L, -2, "value");
            lua_pushnil(L);
            lua_setfield(L, -2, "other");
        } else {
            lua_pushnil(L);
            lua_setfield(L, -2, "index");
            lua_pushnil(L);
            lua_setfield(L, -2, "value");
            lua_pushinteger(L, (lua_Integer)(-1 - i) + 1);
            lua_setfield(L, -2, "other");
        }
        set_contact(L, &c[k]);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

int balls_count(lua_State *L, int arg)
{
    size_t len;
    luaL_checktype(L, arg, LUA_TTABLE);
    len = lua_rawlen(L, arg);
    if (len % 5 != 0 || len / 5 > (size_t)INT_MAX / 2)
        luaL_argerror(L, arg, "5 numbers per ball expected (x, y, vx, vy, r)");
    return (int)(len / 5);
}

void check_balls(lua_State *L, int arg, int opts, int n, balls_args *a)
{
    int k, has_masses = 0;
    a->n = n;
    a->bo = c2d_balls_options_default();
    if (lua_istable(L, opts)) {
        a->bo.restitution = ball_opt(L, opts, "ballRestitution", "opts.ballRestitution", 1.0, 0.0, 1.0);
        a->bo.rest_speed = ball_opt(L, opts, "restSpeed", "opts.restSpeed", 0.0, 0.0, C2D_MAX_COORDINATE);
        a->bo.max_events = (int)ball_opt(L, opts, "maxEvents", "opts.maxEvents", 0.0, 0.0, (double)INT_MAX);
        lua_getfield(L, opts, "masses");
        if (!lua_isnil(L, -1)) {
            if (!lua_istable(L, -1))
                field_typeerror(L, opts, "opts.masses", "table");
            if (lua_rawlen(L, -1) != (size_t)n)
                field_error(L, opts, "opts.masses", "one mass per ball expected");
            has_masses = 1;
            lua_replace(L, opts); /* the options are read: their slot holds the masses now */
        } else {
            lua_pop(L, 1);
        }
    }
    a->balls = (c2d_ball *)balls_buffer(L, (size_t)(n > 0 ? n : 1) * (sizeof(c2d_ball) + sizeof(double)));
    a->buf = lua_gettop(L);
    a->masses = has_masses ? (double *)(a->balls + n) : NULL;
    for (k = 0; k < n; k++) {
        /* one number a statement: of two bad numbers, the first is named on every compiler */
        a->balls[k].position.x = array_number(L, arg, "balls", 5 * k + 1);
        a->balls[k].position.y = array_number(L, arg, "balls", 5 * k + 2);
        a->balls[k].velocity.x = array_number(L, arg, "balls", 5 * k + 3);
        a->balls[k].velocity.y = array_number(L, arg, "balls", 5 * k + 4);
        a->balls[k].radius = array_number(L, arg, "balls", 5 * k + 5);
        if (has_masses) {
            lua_rawgeti(L, opts, k + 1);
            if (lua_type(L, -1) != LUA_TNUMBER)
                field_error(L, opts, lua_pushfstring(L, "opts.masses[%d]", k + 1),
                            lua_pushfstring(L, "number expected, got %s", luaL_typename(L, -2)));
            a->masses[k] = lua_tonumber(L, -1);
            if (!(a->masses[k] > 0)) /* NaN too */
                field_error(L, opts, lua_pushfstring(L, "opts.masses[%d]", k + 1),
                            c2d_status_string(a->masses[k] != a->masses[k] ? C2D_ERR_NOT_FINITE : C2D_ERR_RANGE));
            lua_pop(L, 1);
        }
    }
}

int balls_error(lua_State *L, c2d_status st, double dt, const balls_args *a)
{
    balls_buffer_return(L, a->buf);
    if (st == C2D_ERR_NO_MEMORY || st == C2D_ERR_NULL || st == C2D_ERR_CAPACITY)
        return status_error(L, st, 2, "-");
    if (!(dt >= 0 && dt <= C2D_MAX_COORDINATE))
        return status_error(L, st, 3, "t");
    return luaL_argerror(L, 2, lua_pushfstring(L, "balls: %s", c2d_status_string(st)));
}

void put_balls(lua_State *L, int arg, const balls_args *a)
{
    int k;
    for (k = 0; k < a->n; k++) {
        lua_pushnumber(L, a->balls[k].position.x);
        lua_rawseti(L, arg, 5 * k + 1);
        lua_pushnumber(L, a->balls[k].position.y);
        lua_rawseti(L, arg, 5 * k + 2);
        lua_pushnumber(L, a->balls[k].velocity.x);
        lua_rawseti(L, arg, 5 * k + 3);
        lua_pushnumber(L, a->balls[k].velocity.y);
        lua_rawseti(L, arg, 5 * k + 4);
    }
}

void balls_done(lua_State *L, const balls_args *a)
{
    balls_buffer_return(L, a->buf);
}

/* set:stepBalls(balls, dt [, opts [, contacts]]) -> n, truncated: steps every ball of the flat array
 * balls = {x1, y1, vx1, vy1, r1, x2, ...} through the set and against each other for dt, writing each
 * ball's position and velocity back in place. opts: the level's as set:stepBall's, and masses (an
 * array, math.huge for a fixed ball), ballRestitution, restSpeed, maxEvents. n counts the contacts
 * (both balls' records of a ball-ball contact), all written to contacts when given. */
int s_stepballs(lua_State *L)
{
    set_box *b = checkset(L, 1);
    double dt = luaL_checknumber(L, 3);
    int contacts = opt_table(L, 5), n, top;
    move_args ma;
    balls_args ba;
    c2d_move_result res;
    record_sink sink;
    c2d_status st;
    n = balls_count(L, 2);
    lua_settop(L, 5);
    checkmoveargs(L, 4, 0, &ma, b->responses, b->n, C2D_RESPONSE_BOUNCE, 0, NULL);
    top = lua_gettop(L);
    check_balls(L, 2, 4, n, &ba);
    begin_records(L, &sink);
    b = checkset(L, 1); /* reading opts may have run metamethods */
    st = c2d_static_set_step_balls(b->set, ba.balls, ba.masses, n, dt, &ma.o, &ba.bo, &res,
                                   contacts ? keep_records : NULL, &sink);
    if (st != C2D_OK)
        return balls_error(L, st, dt, &ba);
    put_balls(L, 2, &ba);
    fill_balls_contacts(L, contacts, sink.items, sink.n);
    balls_done(L, &ba);
    lua_settop(L, top);
    lua_pushinteger(L, res.count);
    lua_pushboolean(L, res.truncated);
    return 2;
}
