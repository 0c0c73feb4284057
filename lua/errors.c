/*
 * errors.c - the Lua errors of the binding's failures: a failed status of a core call becomes the
 * standard "bad argument #n to 'f' (...)" error that names the argument that explains it, and a bad
 * field of an options or filter table names the field.
 */
#include <math.h>

#include "binding.h"

/* ---- turning a failed status into the right Lua error ---------------------------------------- */

/*
 * Raises the error for a failed C call whose numeric arguments start at stack index first. roles has
 * one letter per argument: 'c' coordinate or angle, 's' size (must be > 0), 'p' a second point (blamed
 * for a zero-length segment), 'd' a direction (blamed when zero), 't' a limit that may be +infinity
 * (and must not be negative), 'n' a number that must not be negative, '-' not a number (skipped).
 * The first argument that explains the status is named in a standard "bad argument" error carrying
 * c2d_status_string, so `circle(0, 0, -1)` reports bad argument #3. A status no single argument
 * explains (a sum out of range) names the first argument.
 */
int status_error(lua_State *L, c2d_status st, int first, const char *roles)
{
    const char *msg = c2d_status_string(st);
    int i;
    if (st == C2D_ERR_NO_MEMORY || st == C2D_ERR_NULL || st == C2D_ERR_CAPACITY)
        return luaL_error(L, "%s", msg);
    for (i = 0; roles[i] != '\0'; i++) {
        double v = lua_tonumber(L, first + i);
        char role = roles[i];
        int culprit;
        if (role == '-')
            continue;
        switch (st) {
        case C2D_ERR_NOT_FINITE:
            culprit = role == 't' ? (v != v || v == -HUGE_VAL) : !isfinite(v);
            break;
        case C2D_ERR_RANGE:
            culprit = (isfinite(v) && fabs(v) > C2D_MAX_COORDINATE) || ((role == 'n' || role == 't') && v < 0);
            break;
        case C2D_ERR_SIZE:
            culprit = role == 's' && !(v > 0);
            break;
        case C2D_ERR_DEGENERATE:
            culprit = role == 'p' || role == 'd';
            break;
        default:
            culprit = 0;
            break;
        }
        if (culprit)
            return luaL_argerror(L, first + i, msg);
    }
    return luaL_argerror(L, first, msg);
}

/* Raises "bad argument #arg to 'f' (<field>: <what>)" for a field of an options or filter table. */
int field_error(lua_State *L, int arg, const char *field, const char *what)
{
    return luaL_argerror(L, arg, lua_pushfstring(L, "%s: %s", field, what));
}

/* The same for a field of the wrong type, the value at the top of the stack. */
int field_typeerror(lua_State *L, int arg, const char *field, const char *expected)
{
    return field_error(L, arg, field, lua_pushfstring(L, "%s expected, got %s", expected, luaL_typename(L, -1)));
}
