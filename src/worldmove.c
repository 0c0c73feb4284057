/* worldmove.c - moves and ball steps through a world: the entries within reach of the motion become a
 * temporary static set (so seams between touching tiles are found as in any static set), the static
 * set's engine runs the motion, and its contacts are mapped back to entries.
 *
 * Built on the public world and static-set calls only: a world query finds the entries, so filters,
 * callbacks and the world's order behave exactly as in every other query. Whatever the mover can
 * touch during the motion lies within the box of its start grown by the length of the path, because
 * no response lengthens the remaining motion (slide and touch shorten it, bounce keeps at most its
 * length, cross keeps it). */
#include "shape.h"

#include <stdlib.h>
#include <string.h>

#define STACK_HITS 64

typedef struct scope {
    c2d_world_hit stack[STACK_HITS];
    c2d_world_hit *hits;      /* the entries considered, in the world's order */
    const c2d_shape **shapes; /* their shapes: index i of the set is hits[i] */
    c2d_response *responses;  /* per entry, or NULL when no respond callback was given */
    int n;
    c2d_static_set *set;
} scope;

static void scope_free(scope *s)
{
    c2d_static_set_destroy(s->set);
    if (s->hits != s->stack)
        free(s->hits);
    free(s->shapes);
    free(s->responses);
}

static c2d_status check_move_options(const c2d_move_options *o)
{
    if (o && o->responses)
        return C2D_ERR_RANGE; /* per-shape arrays have no meaning in a world: use respond */
    return C2D_OK;
}

/* Finds the entries the motion can reach (box `reach`), asks respond about each, and builds the set. */
static c2d_status scope_build(scope *s, const c2d_world *w, const c2d_shape *mover, c2d_aabb reach,
                              const c2d_world_filter *filter, c2d_world_response_fn respond, void *ctx)
{
    memset(s, 0, sizeof *s);
    s->hits = s->stack;
    int count = 0;
    c2d_status st = c2d_world_query_aabb(w, reach, filter, s->hits, STACK_HITS, &count);
    if (st == C2D_ERR_CAPACITY) {
        /* Callbacks ran once already; running the query again runs them again, which the filter
         * contract allows (a filter must answer the same for the same entry). */
        s->hits = (c2d_world_hit *)malloc((size_t)count * sizeof *s->hits);
        if (!s->hits) {
            s->hits = s->stack;
            return C2D_ERR_NO_MEMORY;
        }
        st = c2d_world_query_aabb(w, reach, filter, s->hits, count, &count);
    }
    if (st != C2D_OK)
        return st;
    s->shapes = (const c2d_shape **)malloc((size_t)(count > 0 ? count : 1) * sizeof *s->shapes);
    if (respond)
        s->responses = (c2d_response *)malloc((size_t)(count > 0 ? count : 1) * sizeof *s->responses);
    if (!s->shapes || (respond && !s->responses))
        return C2D_ERR_NO_MEMORY;
    /* Responses first (the callback may remove entries), then the shapes of the entries still there. */
    for (int k = 0; k < count; k++) {
        if (!respond)
            continue;
        /* An earlier answer may have removed this entry: it is then not asked, and not met. */
        if (c2d_world_get(w, s->hits[k].id, NULL, &s->hits[k].user) != C2D_OK) {
            s->responses[k] = C2D_RESPONSE_NONE;
            continue;
        }
        c2d_response r = respond(ctx, s->hits[k].id, s->hits[k].user);
        if ((int)r < C2D_RESPONSE_NONE || (int)r > C2D_RESPONSE_CROSS)
            return C2D_ERR_RANGE;
        s->responses[k] = r;
    }
    int n = 0;
    for (int k = 0; k < count; k++) {
        c2d_shape *shape = NULL;
        if (respond && s->responses[k] == C2D_RESPONSE_NONE)
            continue;
        if (c2d_world_get(w, s->hits[k].id, &shape, NULL) != C2D_OK || shape == mover)
            continue;
        s->hits[n] = s->hits[k];
        if (respond)
            s->responses[n] = s->responses[k];
        s->shapes[n++] = shape;
    }
    s->n = n;
    return c2d_static_set_new(s->shapes, n, NULL, &s->set);
}

static double clamp_coordinate(double x)
{
    return x < -C2D_MAX_COORDINATE ? -C2D_MAX_COORDINATE : x > C2D_MAX_COORDINATE ? C2D_MAX_COORDINATE : x;
}

/* The box of `box` grown on every side by the length of the motion, kept within the coordinate range
 * a query accepts: every shape's position lies in that range, so a motion that leaves it still meets
 * them inside it. */
static c2d_aabb grow(c2d_aabb box, double by)
{
    box.min.x = clamp_coordinate(box.min.x - by);
    box.min.y = clamp_coordinate(box.min.y - by);
    box.max.x = clamp_coordinate(box.max.x + by);
    box.max.y = clamp_coordinate(box.max.y + by);
    return box;
}

/* Runs the static-set contacts back to entries: tmp[i].index names scope entry index. */
static void map_contacts(const scope *s, const c2d_sweep_contact *tmp, int written, c2d_world_contact *out)
{
    for (int i = 0; i < written; i++) {
        out[i].id = s->hits[tmp[i].index].id;
        out[i].user = s->hits[tmp[i].index].user;
        out[i].contact = tmp[i];
    }
}

/* The options for the set: the caller's, with the per-entry responses of the scope. */
static c2d_move_options scope_options(const scope *s, const c2d_move_options *options)
{
    c2d_move_options o = options ? *options : c2d_move_options_default();
    o.responses = s->responses;
    return o;
}

c2d_status c2d_world_move(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                          const c2d_world_filter *filter, c2d_world_response_fn respond, void *respond_ctx,
                          const c2d_move_options *options, c2d_move_result *result, c2d_world_contact *contacts,
                          int capacity)
{
    if (!world || !mover || !result || (capacity > 0 && !contacts))
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    c2d_status st = c2d_check_vec(displacement);
    if (st == C2D_OK)
        st = check_move_options(options);
    if (st != C2D_OK)
        return st;
    scope s;
    st = scope_build(&s, world, mover, grow(mover->aabb, fabs(displacement.x) + fabs(displacement.y)), filter,
                     respond, respond_ctx);
    c2d_sweep_contact stack[STACK_HITS], *tmp = stack;
    if (st == C2D_OK && capacity > STACK_HITS) {
        tmp = (c2d_sweep_contact *)malloc((size_t)capacity * sizeof *tmp);
        if (!tmp)
            st = C2D_ERR_NO_MEMORY;
    }
    c2d_move_result res;
    if (st == C2D_OK) {
        c2d_move_options o = scope_options(&s, options);
        st = c2d_static_set_move(s.set, mover, displacement, &o, &res, tmp, capacity);
    }
    if (st == C2D_OK) {
        map_contacts(&s, tmp, res.count < capacity ? res.count : capacity, contacts);
        *result = res;
    }
    if (tmp != stack)
        free(tmp);
    scope_free(&s);
    return st;
}

c2d_status c2d_world_step_ball(const c2d_world *world, c2d_ball *ball, double dt, const c2d_world_filter *filter,
                               c2d_world_response_fn respond, void *respond_ctx, const c2d_move_options *options,
                               c2d_move_result *result, c2d_world_contact *contacts, int capacity)
{
    if (!world || !ball || (capacity > 0 && !contacts))
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    c2d_status st = c2d_check_vec(ball->position);
    if (st == C2D_OK)
        st = c2d_check_vec(ball->velocity);
    if (st == C2D_OK)
        st = c2d_check_number(ball->radius);
    if (st == C2D_OK)
        st = c2d_check_number(dt);
    if (st == C2D_OK)
        st = check_move_options(options);
    if (st != C2D_OK)
        return st;
    if (!(ball->radius > 0))
        return C2D_ERR_SIZE;
    /* The same limit as the static set's (its larger component); the reach below uses the longer
     * |vx| + |vy|, which bounds the path on both axes together. */
    if (dt < 0 || !(fmax(fabs(ball->velocity.x), fabs(ball->velocity.y)) * dt <= C2D_MAX_COORDINATE))
        return C2D_ERR_RANGE;
    double path = (fabs(ball->velocity.x) + fabs(ball->velocity.y)) * dt;
    c2d_aabb box;
    box.min = v2(ball->position.x - ball->radius, ball->position.y - ball->radius);
    box.max = v2(ball->position.x + ball->radius, ball->position.y + ball->radius);
    scope s;
    st = scope_build(&s, world, NULL, grow(box, path), filter, respond, respond_ctx);
    c2d_sweep_contact stack[STACK_HITS], *tmp = stack;
    if (st == C2D_OK && capacity > STACK_HITS) {
        tmp = (c2d_sweep_contact *)malloc((size_t)capacity * sizeof *tmp);
        if (!tmp)
            st = C2D_ERR_NO_MEMORY;
    }
    c2d_ball b = *ball;
    c2d_move_result res;
    if (st == C2D_OK) {
        c2d_move_options o = scope_options(&s, options);
        st = c2d_static_set_step_ball(s.set, &b, dt, &o, &res, tmp, capacity);
    }
    if (st == C2D_OK) {
        map_contacts(&s, tmp, res.count < capacity ? res.count : capacity, contacts);
        *ball = b;
        if (result)
            *result = res;
    }
    if (tmp != stack)
        free(tmp);
    scope_free(&s);
    return st;
}
