/* resolve.c - the public calls that move a shape or a ball through a static set: the first contact
 * (c2d_static_set_sweep), the shortest way out of the union (push-out, seed 004's problem 2 without
 * random nudges), bump.lua-style moves with touch, slide, bounce and cross responses, and the ball
 * stepper that bounces as often as a step requires, each with plain records, full records, a list or
 * a report. Each checks its input, makes the mover and hands it to the engine (engine.h). Layer 4,
 * sets: calls run.c, pushout.c and engine.c. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

c2d_move_options c2d_move_options_default(void)
{
    c2d_move_options o;
    o.response = C2D_RESPONSE_NONE;
    o.responses = NULL;
    o.restitution = 1.0;
    o.friction = 0.0;
    return o;
}

static c2d_status check_options(const c2d_move_options *o, int n)
{
    if (!o)
        return C2D_OK;
    if (o->responses)
        for (int i = 0; i < n; i++)
            if ((int)o->responses[i] < 0 || (int)o->responses[i] > C2D_RESPONSE_CROSS)
                return C2D_ERR_RANGE;
    if (!isfinite(o->restitution) || !isfinite(o->friction))
        return C2D_ERR_NOT_FINITE;
    if (o->restitution < 0 || o->restitution > 1 || o->friction < 0 || o->friction > C2D_MAX_COORDINATE ||
        (int)o->response < 0 || (int)o->response > C2D_RESPONSE_CROSS)
        return C2D_ERR_RANGE;
    return C2D_OK;
}

c2d_status c2d_move_options_check(const c2d_move_options *options, int n)
{
    return check_options(options, n);
}

/* The mover of a shape: its core placed in the world. Free with mover_free. A chain or concave
 * polygon is no convex core: it cannot be moved through a set (yet). */
c2d_status c2d_mover_of_shape(const c2d_shape *s, mover *m)
{
    c2d_vec2 *v = m->own, *nv = m->own_n;
    m->heap = NULL;
    if (c2d_is_compound(s))
        return C2D_ERR_NOT_CONVEX;
    if (s->count > C2D_PAIR_STACK) {
        m->heap = (c2d_vec2 *)malloc(2 * (size_t)s->count * sizeof(c2d_vec2));
        if (!m->heap)
            return C2D_ERR_NO_MEMORY;
        v = m->heap;
        nv = m->heap + s->count;
    }
    c2d_core k = c2d_world_core(s, v, nv);
    m->v = v;
    m->nrm = k.n;
    m->n = s->count;
    m->r = s->radius;
    m->box = c2d_shape_aabb(s);
    return C2D_OK;
}

void c2d_mover_free(mover *m)
{
    free(m->heap);
    m->heap = NULL;
}

c2d_status c2d_static_set_sweep(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                                c2d_toi *out, int *index)
{
    if (!set || !mover_shape || !out || !index)
        return C2D_ERR_NULL;
    c2d_status st = c2d_check_vec(displacement);
    if (st != C2D_OK)
        return st;
    mover a;
    if ((st = c2d_mover_of_shape(mover_shape, &a)) != C2D_OK)
        return st;
    engine e;
    st = c2d_engine_init(&e, set, &a, NULL, C2D_RESPONSE_SLIDE,
                         c2d_max_num(c2d_aabb_magnitude(a.box), vec_magnitude(displacement)), 1.0);
    if (st != C2D_OK) {
        c2d_mover_free(&a);
        return st;
    }
    c2d_toi r;
    memset(&r, 0, sizeof r);
    r.t = 1;
    int hit_index = -1;
    cast_ctx c;
    cross_init(&c); /* solid casts only: the storage stays unused */
    c.e = &e;
    c.p = v2(0, 0);
    c.d = displacement;
    c.dur = 1.0;
    c.cross = 0;
    c.tmax = 1.0;
    c.index = -1;
    c.nx = 0;
    c2d_vec2 np;
    c2d_rhull_hit f;
    /* Overlap first: reported with the shape and the normal of the shortest way out. */
    double deepest = 0;
    int pr = c2d_push_round(&e, c.p, &np, &hit_index, &f, &deepest);
    if (pr < 0) {
        c2d_engine_free(&e);
        c2d_mover_free(&a);
        return C2D_ERR_NO_MEMORY;
    }
    if (pr > 0) {
        c2d_rhull h;
        c2d_vec2 shift;
        c2d_rhull_hit sf;
        c2d_engine_hull(&e, hit_index, 0, &h, &shift);
        r.state = C2D_TOI_OVERLAP;
        r.t = 0;
        r.depth = -c2d_rhull_signed_distance(&h, shift, &sf);
        /* The shortest way out may leave through the surface of a shape the mover does not overlap
         * (the top of the brick beside the one it is in): the depth is then the length of that way
         * out, which is what moving the mover by depth along -normal takes. */
        if (!(r.depth > 0))
            r.depth = v2_len(np);
        /* An exit where the mover stands would be free only if no shape held it deeper than
         * touching, which the overlap test found one does (both take the same tolerance, see
         * member_tol): a guard, should rounding put one there, with the deepest shape's depth. */
        if (!(r.depth > 0))
            r.depth = deepest;
        r.normal = v2_neg(f.normal);
        r.point = c2d_rhull_contact_point(&h, &sf, set->core[hit_index].v, set->core[hit_index].radius,
                                          v2(0, 0), a.v, a.r, v2(0, 0));
    } else {
        c2d_engine_query(&e, mover_box(&a, c.p, displacement, 0.0), c2d_cast_visit, &c);
        hit_index = c.index;
        if (c.no_memory) {
            c2d_engine_free(&e);
            c2d_mover_free(&a);
            return C2D_ERR_NO_MEMORY;
        }
        if (c.index >= 0) {
            r.state = C2D_TOI_HIT;
            r.t = c.hit.t;
            r.normal = v2_neg(c.hit.normal);
            r.point = c2d_engine_contact_point(&e, c.index, &c.hit, v2_scale(displacement, c.hit.t), c.hit.t, 0);
        }
    }
    c2d_engine_free(&e);
    c2d_mover_free(&a);
    *out = r;
    *index = hit_index >= 0 ? c2d_static_set_owner(set, hit_index) : -1;
    return C2D_OK;
}

c2d_cast c2d_cast_of_toi(const c2d_shape *mover_shape, c2d_vec2 displacement, const c2d_toi *toi, int index,
                         c2d_world_id id, uintptr_t user)
{
    c2d_cast c;
    memset(&c, 0, sizeof c);
    c.t = 1;
    c.index = -1;
    c.position = v2_add(mover_shape->pos, displacement);
    if (toi->state == C2D_TOI_NONE)
        return c;
    c.state = toi->state == C2D_TOI_OVERLAP ? C2D_CAST_INSIDE : C2D_CAST_HIT;
    c.t = toi->t;
    /* t of the whole displacement lands exactly on the end, as a move's position does. */
    c.position = toi->t == 1 ? c.position : v2_add(mover_shape->pos, v2_scale(displacement, toi->t));
    c.point = toi->point;
    c.normal = v2_neg(toi->normal); /* the sweep's normal points from the mover to the shape */
    c.depth = toi->depth;
    c.index = index;
    c.id = id;
    c.user = user;
    return c;
}

c2d_status c2d_static_set_cast(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                               c2d_cast *out)
{
    if (!set || !mover_shape || !out)
        return C2D_ERR_NULL;
    c2d_toi toi;
    int index;
    c2d_status st = c2d_static_set_sweep(set, mover_shape, displacement, &toi, &index);
    if (st != C2D_OK)
        return st;
    *out = c2d_cast_of_toi(mover_shape, displacement, &toi, index, 0, index >= 0 ? c2d_static_set_value(set, index) : 0);
    return C2D_OK;
}

c2d_status c2d_static_set_push_out(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 *out)
{
    if (!set || !mover_shape || !out)
        return C2D_ERR_NULL;
    mover a;
    c2d_status st = c2d_mover_of_shape(mover_shape, &a);
    if (st != C2D_OK)
        return st;
    engine e;
    st = c2d_engine_init(&e, set, &a, NULL, C2D_RESPONSE_SLIDE, c2d_aabb_magnitude(a.box), 1.0);
    if (st != C2D_OK) {
        c2d_mover_free(&a);
        return st;
    }
    c2d_vec2 p = v2(0, 0);
    for (int round = 0; round < MAX_PUSHES; round++) {
        c2d_vec2 np;
        int index;
        c2d_rhull_hit f;
        int r = c2d_push_round(&e, p, &np, &index, &f, NULL);
        if (r < 0) {
            c2d_engine_free(&e);
        c2d_mover_free(&a);
            return C2D_ERR_NO_MEMORY;
        }
        if (r == 0)
            break;
        p = np;
    }
    c2d_engine_free(&e);
    c2d_mover_free(&a);
    *out = p;
    return C2D_OK;
}

/* A motion's record list once the motion is decided: C2D_ERR_NO_MEMORY when it could not hold every
 * record, else report's answer to all of them (when there is a report), which becomes the call's. */
static c2d_status list_done(const c2d_record_list *list, c2d_records_fn report, void *ctx)
{
    if (list->no_memory)
        return C2D_ERR_NO_MEMORY;
    return report ? report(ctx, list->items, list->count) : C2D_OK;
}

/* The move of c2d_static_set_move, its contacts to plain or full records: the mover at vel per unit of
 * time for T units of time (vel the displacement and T 1 for the untimed calls); a mover that turns
 * (c2d_static_set_move_turning) when turn is not NULL, its motion over the whole move (then vel is its
 * pivot's). */
static c2d_status set_move(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement, double T,
                           const c2d_rigid *turn, const c2d_move_options *options, c2d_move_result *result,
                           c2d_sweep_contact *plain, c2d_contact_record *full, int capacity, c2d_record_list *list,
                           c2d_records_fn report, void *report_ctx, double *turned)
{
    if (!set || !mover_shape || !result || (capacity > 0 && !plain && !full))
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    c2d_status st = c2d_check_vec(displacement);
    if (st == C2D_OK)
        st = check_options(options, set->n_public);
    if (st != C2D_OK)
        return st;
    mover a;
    if ((st = c2d_mover_of_shape(mover_shape, &a)) != C2D_OK)
        return st;
    double scale = c2d_max_num(c2d_aabb_magnitude(a.box), vec_magnitude(displacement) * T);
    if (turn && turn->w != 0) {
        /* Its coordinates while it turns: within its farthest point's distance of the pivot's path. */
        double reach = 0;
        for (int k = 0; k < a.n; k++)
            reach = c2d_max_num(reach, vec_magnitude(v2_sub(a.v[k], turn->c)));
        scale = c2d_max_num(scale, vec_magnitude(turn->c) + vec_magnitude(turn->v) + 2 * (reach + a.r));
        if (!(scale <= C2D_MAX_COORDINATE)) {
            c2d_mover_free(&a);
            return C2D_ERR_RANGE;
        }
    }
    engine e;
    st = c2d_engine_init(&e, set, &a, options, C2D_RESPONSE_SLIDE, scale, T);
    if (st != C2D_OK) {
        c2d_mover_free(&a);
        return st;
    }
    e.plain = plain;
    e.full = full;
    e.capacity = capacity;
    e.list = list;
    e.origin = mover_shape->pos;
    if (turn) {
        e.turner = &a;
        e.turn = *turn;
    }
    /* The defaults of c2d_move_options_default, without copying a whole options struct. */
    double restitution = options ? options->restitution : 1.0, friction = options ? options->friction : 0.0;
    c2d_vec2 p = v2(0, 0), vel = displacement;
    c2d_move_result res;
    st = c2d_engine_run(&e, &p, &vel, T, restitution, friction, &res);
    double angle = e.turn_angle;
    c2d_engine_free(&e);
    c2d_mover_free(&a);
    if (st == C2D_OK && list)
        st = list_done(list, report, report_ctx);
    if (st == C2D_OK) {
        *result = res;
        if (turned)
            *turned = angle;
    }
    return st;
}

c2d_status c2d_static_set_move(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                               const c2d_move_options *options, c2d_move_result *result,
                               c2d_sweep_contact *contacts, int capacity)
{
    return set_move(set, mover_shape, displacement, 1.0, NULL, options, result, contacts, NULL, capacity, NULL, NULL, NULL, NULL);
}

c2d_status c2d_static_set_move_turning(const c2d_static_set *set, const c2d_shape *mover_shape,
                                       const c2d_motion *motion, const c2d_move_options *options,
                                       c2d_move_result *result, double *turned, c2d_sweep_contact *contacts,
                                       int capacity)
{
    if (!set || !mover_shape || !motion || !result)
        return C2D_ERR_NULL;
    c2d_rigid m;
    c2d_status st = c2d_rigid_of_motion(mover_shape, motion, &m);
    if (st != C2D_OK)
        return st;
    return set_move(set, mover_shape, motion->velocity, 1.0, &m, options, result, contacts, NULL,
                    capacity, NULL, NULL, NULL, turned);
}


c2d_status c2d_static_set_move_turning_report(const c2d_static_set *set, const c2d_shape *mover_shape,
                                              const c2d_motion *motion, const c2d_move_options *options,
                                              c2d_move_result *result, double *turned, c2d_records_fn report,
                                              void *report_ctx)
{
    if (!set || !mover_shape || !motion || !result || !report)
        return C2D_ERR_NULL;
    c2d_rigid m;
    c2d_status st = c2d_rigid_of_motion(mover_shape, motion, &m);
    if (st != C2D_OK)
        return st;
    c2d_contact_record stack[16];
    c2d_record_list list;
    c2d_record_list_init(&list, stack, 16);
    st = set_move(set, mover_shape, motion->velocity, 1.0, &m, options, result, NULL, NULL, 0, &list, report, report_ctx,
                  turned);
    c2d_record_list_free(&list);
    return st;
}

c2d_status c2d_static_set_move_records(const c2d_static_set *set, const c2d_shape *mover_shape,
                                       c2d_vec2 displacement, const c2d_move_options *options,
                                       c2d_move_result *result, c2d_contact_record *records, int capacity)
{
    return set_move(set, mover_shape, displacement, 1.0, NULL, options, result, NULL, records, capacity, NULL, NULL, NULL, NULL);
}

/* The step of c2d_static_set_step_ball, its contacts to plain or full records. */
static c2d_status set_step_ball(const c2d_static_set *set, c2d_ball *ball, double t0, double dt,
                                const c2d_move_options *options, c2d_move_result *result, c2d_sweep_contact *plain,
                                c2d_contact_record *full, int capacity, c2d_record_list *list, c2d_records_fn report,
                                void *report_ctx)
{
    if (!set || !ball || (capacity > 0 && !plain && !full))
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
        st = check_options(options, set->n_public);
    if (st != C2D_OK)
        return st;
    if (!(ball->radius > 0))
        return C2D_ERR_SIZE;
    if (dt < 0 || vec_magnitude(ball->velocity) * dt > C2D_MAX_COORDINATE)
        return C2D_ERR_RANGE;
    static const c2d_vec2 centre = {0.0, 0.0};
    mover a;
    a.heap = NULL;
    a.v = &centre;
    a.nrm = NULL;
    a.n = 1;
    a.r = ball->radius;
    a.box.min = v2(-ball->radius, -ball->radius);
    a.box.max = v2(ball->radius, ball->radius);
    engine e;
    st = c2d_engine_init(&e, set, &a, options, C2D_RESPONSE_BOUNCE,
                         vec_magnitude(ball->position) + vec_magnitude(ball->velocity) * dt + ball->radius, t0 + dt);
    if (st != C2D_OK)
        return st;
    e.clock0 = t0;
    e.plain = plain;
    e.full = full;
    e.capacity = capacity;
    e.list = list;
    double restitution = options ? options->restitution : 1.0, friction = options ? options->friction : 0.0;
    c2d_vec2 p = ball->position, vel = ball->velocity;
    c2d_move_result res;
    st = c2d_engine_run(&e, &p, &vel, dt, restitution, friction, &res);
    c2d_engine_free(&e);
    c2d_mover_free(&a);
    if (st == C2D_OK && list)
        st = list_done(list, report, report_ctx);
    if (st != C2D_OK)
        return st;
    ball->position = p;
    ball->velocity = vel;
    if (result)
        *result = res;
    return C2D_OK;
}

c2d_status c2d_static_set_step_ball(const c2d_static_set *set, c2d_ball *ball, double dt,
                                    const c2d_move_options *options, c2d_move_result *result,
                                    c2d_sweep_contact *contacts, int capacity)
{
    return set_step_ball(set, ball, 0.0, dt, options, result, contacts, NULL, capacity, NULL, NULL, NULL);
}

c2d_status c2d_static_set_step_ball_records(const c2d_static_set *set, c2d_ball *ball, double dt,
                                            const c2d_move_options *options, c2d_move_result *result,
                                            c2d_contact_record *records, int capacity)
{
    return set_step_ball(set, ball, 0.0, dt, options, result, NULL, records, capacity, NULL, NULL, NULL);
}

/* A timed move's velocity per unit of time: displacement over dt > 0 (C2D_ERR_RANGE for dt <= 0, or a
 * velocity beyond the coordinate range). For dt 1 it is the displacement, exactly. */
static c2d_status timed_velocity(c2d_vec2 displacement, double dt, c2d_vec2 *out)
{
    c2d_status st = c2d_check_vec(displacement);
    if (st == C2D_OK)
        st = c2d_check_number(dt);
    if (st != C2D_OK)
        return st;
    if (!(dt > 0))
        return C2D_ERR_RANGE;
    c2d_vec2 v = v2(displacement.x / dt, displacement.y / dt);
    if (!(fabs(v.x) <= C2D_MAX_COORDINATE && fabs(v.y) <= C2D_MAX_COORDINATE))
        return C2D_ERR_RANGE;
    *out = v;
    return C2D_OK;
}

/* A timed turning move's rigid motion over the whole move: the motion's velocity and angular velocity
 * (per unit of time) times dt > 0. For dt 1 it is the motion's, exactly. */
static c2d_status timed_turn(const c2d_shape *mover_shape, const c2d_motion *motion, double dt, c2d_rigid *out)
{
    c2d_status st = c2d_check_number(dt);
    if (st != C2D_OK)
        return st;
    if (!(dt > 0))
        return C2D_ERR_RANGE;
    c2d_motion m = *motion;
    m.velocity = v2(m.velocity.x * dt, m.velocity.y * dt);
    m.angular_velocity *= dt;
    return c2d_rigid_of_motion(mover_shape, &m, out);
}

c2d_status c2d_static_set_move_turning_list(const c2d_static_set *set, const c2d_shape *mover_shape,
                                            const c2d_motion *motion, double dt, const c2d_move_options *options,
                                            c2d_move_result *result, double *turned, c2d_record_list *list)
{
    if (!set || !mover_shape || !motion || !result)
        return C2D_ERR_NULL;
    c2d_rigid m;
    c2d_status st = timed_turn(mover_shape, motion, dt, &m);
    if (st != C2D_OK)
        return st;
    return set_move(set, mover_shape, motion->velocity, dt, &m, options, result, NULL, NULL, 0, list, NULL, NULL, turned);
}

c2d_status c2d_static_set_move_list(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                                    double dt, const c2d_move_options *options, c2d_move_result *result,
                                    c2d_record_list *list)
{
    c2d_vec2 vel;
    c2d_status st = timed_velocity(displacement, dt, &vel);
    if (st != C2D_OK)
        return st;
    return set_move(set, mover_shape, vel, dt, NULL, options, result, NULL, NULL, 0, list, NULL, NULL, NULL);
}

c2d_status c2d_static_set_move_timed_report(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                                            double dt, const c2d_move_options *options, c2d_move_result *result,
                                            c2d_records_fn report, void *report_ctx)
{
    if (!set || !mover_shape || !result || !report)
        return C2D_ERR_NULL;
    c2d_contact_record stack[16];
    c2d_record_list list;
    c2d_record_list_init(&list, stack, 16);
    c2d_status st = c2d_static_set_move_list(set, mover_shape, displacement, dt, options, result, &list);
    if (st == C2D_OK)
        st = list_done(&list, report, report_ctx);
    c2d_record_list_free(&list);
    return st;
}

c2d_status c2d_static_set_move_turning_timed_report(const c2d_static_set *set, const c2d_shape *mover_shape,
                                                    const c2d_motion *motion, double dt,
                                                    const c2d_move_options *options, c2d_move_result *result,
                                                    double *turned, c2d_records_fn report, void *report_ctx)
{
    if (!set || !mover_shape || !motion || !result || !report)
        return C2D_ERR_NULL;
    c2d_contact_record stack[16];
    c2d_record_list list;
    c2d_record_list_init(&list, stack, 16);
    c2d_status st = c2d_static_set_move_turning_list(set, mover_shape, motion, dt, options, result, turned, &list);
    if (st == C2D_OK)
        st = list_done(&list, report, report_ctx);
    c2d_record_list_free(&list);
    return st;
}

c2d_status c2d_static_set_step_ball_list(const c2d_static_set *set, c2d_ball *ball, double dt,
                                         const c2d_move_options *options, c2d_move_result *result,
                                         c2d_record_list *list)
{
    return set_step_ball(set, ball, 0.0, dt, options, result, NULL, NULL, 0, list, NULL, NULL);
}

c2d_status c2d_static_set_step_ball_list_at(const c2d_static_set *set, c2d_ball *ball, double t0, double dt,
                                            const c2d_move_options *options, c2d_move_result *result,
                                            c2d_record_list *list)
{
    return set_step_ball(set, ball, t0, dt, options, result, NULL, NULL, 0, list, NULL, NULL);
}

c2d_status c2d_static_set_move_report(const c2d_static_set *set, const c2d_shape *mover_shape, c2d_vec2 displacement,
                                      const c2d_move_options *options, c2d_move_result *result,
                                      c2d_records_fn report, void *report_ctx)
{
    if (!report)
        return C2D_ERR_NULL;
    c2d_contact_record stack[16];
    c2d_record_list list;
    c2d_record_list_init(&list, stack, 16);
    c2d_status st = set_move(set, mover_shape, displacement, 1.0, NULL, options, result, NULL, NULL, 0, &list, report, report_ctx, NULL);
    c2d_record_list_free(&list);
    return st;
}

c2d_status c2d_static_set_step_ball_report(const c2d_static_set *set, c2d_ball *ball, double dt,
                                           const c2d_move_options *options, c2d_move_result *result,
                                           c2d_records_fn report, void *report_ctx)
{
    if (!report)
        return C2D_ERR_NULL;
    c2d_contact_record stack[16];
    c2d_record_list list;
    c2d_record_list_init(&list, stack, 16);
    c2d_status st = set_step_ball(set, ball, 0.0, dt, options, result, NULL, NULL, 0, &list, report, report_ctx);
    c2d_record_list_free(&list);
    return st;
}
