/* test_world_balls.c - many balls stepped together through a world (c2d_world_step_balls): with only a
 * level (or nothing) in the world it is c2d_static_set_step_balls on the level bit for bit, records and
 * all; among tiles that are entries it answers as a static set of the same shapes (seams found in the
 * world too), no ball ending inside a tile or another ball; the filter and respond are honoured and asked
 * once per entry; a ball thrown by a heavier ball, or by a flipper, beyond the step's first scope still
 * meets what stands there; bad input changes nothing and asks no callback. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define MAXB 48
#define MAXT 256

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Every record of a step and the ball each is about, however many; calls counts the reports. */
typedef struct sink {
    c2d_contact_record *r;
    int *ball;
    int n, cap, calls;
} sink;

static void sink_free(sink *s)
{
    free(s->r);
    free(s->ball);
    memset(s, 0, sizeof *s);
}

static c2d_status sink_room(sink *s, int n)
{
    if (n <= s->cap)
        return C2D_OK;
    c2d_contact_record *r = (c2d_contact_record *)realloc(s->r, (size_t)n * sizeof *r);
    if (!r)
        return C2D_ERR_NO_MEMORY;
    s->r = r;
    int *b = (int *)realloc(s->ball, (size_t)n * sizeof *b);
    if (!b)
        return C2D_ERR_NO_MEMORY;
    s->ball = b;
    s->cap = n;
    return C2D_OK;
}

static c2d_status keep_world(void *ctx, const c2d_contact_record *r, const int *balls, int n)
{
    sink *s = (sink *)ctx;
    s->calls++;
    if (sink_room(s, n) != C2D_OK)
        return C2D_ERR_NO_MEMORY;
    for (int k = 0; k < n; k++) {
        s->r[k] = r[k];
        s->ball[k] = balls[k];
    }
    s->n = n;
    return C2D_OK;
}

/* The static set's records, with the ball each is about taken from its id. */
static c2d_status keep_set(void *ctx, const c2d_contact_record *r, int n)
{
    sink *s = (sink *)ctx;
    s->calls++;
    if (sink_room(s, n) != C2D_OK)
        return C2D_ERR_NO_MEMORY;
    for (int k = 0; k < n; k++) {
        s->r[k] = r[k];
        s->ball[k] = (int)r[k].id - 1;
    }
    s->n = n;
    return C2D_OK;
}

static c2d_status refuse(void *ctx, const c2d_contact_record *r, const int *balls, int n)
{
    (void)r;
    (void)balls;
    (void)n;
    ++*(int *)ctx;
    return C2D_ERR_CAPACITY;
}

/* The same contact to the last bit, whatever names what was met. */
static int same_contact(const c2d_contact_record *a, const c2d_contact_record *b)
{
    return same_double(a->contact.t, b->contact.t) && tu_same_vec(a->contact.normal, b->contact.normal) &&
           tu_same_vec(a->contact.point, b->contact.point) && a->contact.response == b->contact.response &&
           a->contact.pushed_out == b->contact.pushed_out && tu_same_vec(a->position, b->position) &&
           tu_same_vec(a->velocity, b->velocity);
}

static int same_result(const c2d_move_result *a, const c2d_move_result *b)
{
    return tu_same_vec(a->displacement, b->displacement) && tu_same_vec(a->velocity, b->velocity) &&
           same_double(a->travelled, b->travelled) && a->count == b->count && a->truncated == b->truncated;
}

/* A room of unit tiles around [0, w] x [0, w] with a few pillars of tiles inside: the shapes (the
 * caller's to destroy), as a world's entries (user value: the index) and as a static set of the same
 * shapes in the same order (user value 1000 + index), which a world can also take as its level. */
typedef struct room {
    int n;
    c2d_shape *tiles[MAXT];
    c2d_world_id ids[MAXT];
    c2d_world *world; /* the tiles as entries */
    c2d_static_set *set;
} room;

static c2d_status room_tile(room *r, double x, double y)
{
    if (r->n == MAXT)
        return C2D_ERR_CAPACITY;
    c2d_status st = c2d_rect_new(x + 0.5, y + 0.5, 1, 1, 0, &r->tiles[r->n]);
    if (st == C2D_OK)
        r->n++;
    return st;
}

static c2d_status room_make(room *r, int w)
{
    memset(r, 0, sizeof *r);
    c2d_status st = C2D_OK;
    for (int x = -1; st == C2D_OK && x <= w; x++) {
        st = room_tile(r, x, -1);
        if (st == C2D_OK)
            st = room_tile(r, x, w);
    }
    for (int y = 0; st == C2D_OK && y < w; y++) {
        st = room_tile(r, -1, y);
        if (st == C2D_OK)
            st = room_tile(r, w, y);
    }
    /* Pillars of two by two tiles: seams inside the room too. */
    for (int p = 0; st == C2D_OK && p < 4; p++) {
        int px = (p % 2 ? 3 * w / 4 : w / 4) - 1, py = (p / 2 ? 3 * w / 4 : w / 4) - 1;
        for (int k = 0; st == C2D_OK && k < 4; k++)
            st = room_tile(r, px + k % 2, py + k / 2);
    }
    if (st == C2D_OK)
        st = c2d_world_new(&r->world);
    for (int i = 0; st == C2D_OK && i < r->n; i++)
        st = c2d_world_add(r->world, r->tiles[i], (uintptr_t)i, &r->ids[i]);
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)r->tiles, r->n, NULL, &r->set);
    for (int i = 0; st == C2D_OK && i < r->n; i++)
        st = c2d_static_set_set_user(r->set, i, (uintptr_t)(1000 + i));
    return st;
}

static void room_free(room *r)
{
    c2d_world_destroy(r->world);
    c2d_static_set_destroy(r->set);
    for (int i = 0; i < r->n; i++)
        c2d_shape_destroy(r->tiles[i]);
    memset(r, 0, sizeof *r);
}

/* Whether a ball of radius rad at p stands clear of the room's tiles and pillars (the pillars' tiles
 * hold the squares they cover). */
static double clearance(const room *r, c2d_vec2 p, double rad)
{
    c2d_shape *ball;
    double best = INFINITY;
    if (c2d_circle_new(p.x, p.y, rad, &ball) != C2D_OK)
        return -INFINITY;
    for (int i = 0; i < r->n; i++) {
        c2d_distance_result d;
        if (c2d_distance(ball, r->tiles[i], &d) == C2D_OK)
            best = fmin(best, d.distance);
    }
    c2d_shape_destroy(ball);
    return best;
}

/* Up to n balls in the room of width w, clear of the tiles and of one another, at up to speed_radii
 * radii a unit of time; one in twenty a fixed ball (at rest). Returns how many were placed. */
static int random_balls(const room *r, c2d_ball *b, double *m, int n, int w, double speed_radii)
{
    int placed_n = 0;
    for (int i = 0; i < n; i++) {
        double rad = c2d_test_uniform(0.1, 0.6);
        int placed = 0;
        c2d_vec2 p = V(0, 0);
        for (int tries = 0; tries < 50 && !placed; tries++) {
            double x = c2d_test_uniform(rad, w - rad);
            double y = c2d_test_uniform(rad, w - rad);
            p = V(x, y);
            placed = clearance(r, p, rad) > 1e-9;
            for (int k = 0; k < placed_n && placed; k++)
                placed = tu_len(tu_sub(p, b[k].position)) > rad + b[k].radius + 1e-9;
        }
        if (!placed)
            continue;
        double ang = c2d_test_uniform(0, 2 * TU_PI);
        double sp = c2d_test_uniform(0, speed_radii * rad);
        double u = c2d_test_uniform(0, 1);
        b[placed_n].position = p;
        b[placed_n].velocity = V(sp * cos(ang), sp * sin(ang));
        b[placed_n].radius = rad;
        m[placed_n] = u < 0.05 ? INFINITY : c2d_test_uniform(0.2, 5);
        if (m[placed_n] == INFINITY)
            b[placed_n].velocity = V(0, 0);
        placed_n++;
    }
    return placed_n;
}

TEST(world_balls_through_a_level_alone_are_the_set_s_call_bit_for_bit)
{
    /* A world with no entry and the room as its level runs the step through the level itself: every
     * ball, the result and every record as c2d_static_set_step_balls gives them, the level's shapes
     * named by id 0, their index and value. A world with nothing at all is the empty set's call. */
    int w = 16;
    room r;
    ENSURE_OK(room_make(&r, w));
    c2d_world *level_world, *bare;
    c2d_static_set *empty;
    ENSURE_OK(c2d_world_new(&level_world));
    ENSURE_OK(c2d_world_set_level(level_world, r.set));
    ENSURE_OK(c2d_world_new(&bare));
    ENSURE_OK(c2d_static_set_new(NULL, 0, NULL, &empty));
    static sink ws, ss;
    long scenes = c2d_test_iterations(120), records = 0, ball_records = 0;
    for (long scene = 0; scene < scenes && !c2d_test_failed(); scene++) {
        c2d_ball b[MAXB];
        double m[MAXB];
        int want = 2 + (int)(c2d_test_rand() % (MAXB - 2));
        int n = random_balls(&r, b, m, want, w, 40);
        c2d_balls_options bo = c2d_balls_options_default();
        bo.restitution = c2d_test_uniform(0, 1);
        c2d_move_options o = c2d_move_options_default();
        o.restitution = c2d_test_uniform(0.5, 1);
        int in_level = scene % 4 != 3;
        const c2d_world *world = in_level ? level_world : bare;
        const c2d_static_set *set = in_level ? r.set : empty;
        c2d_ball mine[MAXB];
        memcpy(mine, b, sizeof b);
        for (int step = 0; step < 4 && !c2d_test_failed(); step++) {
            c2d_move_result rw, rs;
            ENSURE_OK(c2d_world_step_balls(world, mine, m, n, 1, NULL, NULL, NULL, &o, &bo, &rw, keep_world, &ws));
            ENSURE_OK(c2d_static_set_step_balls(set, b, m, n, 1, &o, &bo, &rs, keep_set, &ss));
            ENSURE_MSG(memcmp(mine, b, (size_t)n * sizeof *b) == 0, "scene %ld step %d: the balls differ", scene,
                       step);
            ENSURE(same_result(&rw, &rs) && ws.n == ss.n && ws.n == rw.count);
            for (int k = 0; k < ws.n; k++) {
                const c2d_contact_record *a = &ws.r[k], *e = &ss.r[k];
                ENSURE_MSG(ws.ball[k] == ss.ball[k] && ws.ball[k] >= 0 && ws.ball[k] < n,
                           "scene %ld step %d record %d: ball %d, the set's %d", scene, step, k, ws.ball[k],
                           ss.ball[k]);
                ENSURE(a->id == 0 && a->contact.index == e->contact.index && a->user == e->user);
                ENSURE(e->contact.index < 0 || a->user == (uintptr_t)(1000 + e->contact.index));
                ENSURE(same_contact(a, e));
                ball_records += e->contact.index < 0;
            }
            records += ws.n;
        }
    }
    printf("# world balls through a level: %ld records, %ld between balls\n", records, ball_records);
    ENSURE_MSG(ball_records > 0 && records > ball_records, "the scenes met too little: %ld records, %ld between balls",
               records, ball_records);
    sink_free(&ws);
    sink_free(&ss);
    c2d_static_set_destroy(empty);
    c2d_world_destroy(bare);
    c2d_world_destroy(level_world);
    room_free(&r);
}

TEST(world_balls_among_tile_entries_follow_the_static_set_and_never_end_inside)
{
    /* The room's tiles as entries of a world, against a static set of the same shapes: the world builds
     * its set of the tiles within reach (seams found there too), so rounding may differ now and then,
     * but the steps must agree, every tile named by its entry, and no ball may end inside a tile or
     * another ball. */
    int w = 16;
    room r;
    ENSURE_OK(room_make(&r, w));
    static sink ws, ss;
    long scenes = c2d_test_iterations(80), steps = 0, differ = 0, contacts = 0;
    for (long scene = 0; scene < scenes && !c2d_test_failed(); scene++) {
        c2d_ball b[MAXB], mine[MAXB];
        double m[MAXB];
        int want = 2 + (int)(c2d_test_rand() % (MAXB - 2));
        int n = random_balls(&r, b, m, want, w, 30);
        c2d_balls_options bo = c2d_balls_options_default();
        bo.restitution = c2d_test_uniform(0.3, 1);
        memcpy(mine, b, sizeof b);
        for (int step = 0; step < 6 && !c2d_test_failed(); step++) {
            c2d_move_result rw, rs;
            ENSURE_OK(c2d_world_step_balls(r.world, mine, m, n, 1, NULL, NULL, NULL, NULL, &bo, &rw, keep_world, &ws));
            ENSURE_OK(c2d_static_set_step_balls(r.set, b, m, n, 1, NULL, &bo, &rs, keep_set, &ss));
            steps++;
            contacts += rw.count;
            for (int i = 0; i < n; i++) {
                double c = clearance(&r, mine[i].position, mine[i].radius);
                ENSURE_MSG(c >= -1e-9, "scene %ld step %d: ball %d ends %.3g inside a tile at (%.17g, %.17g)", scene,
                           step, i, -c, mine[i].position.x, mine[i].position.y);
                for (int j = i + 1; j < n; j++) {
                    double R = mine[i].radius + mine[j].radius;
                    ENSURE_MSG(m[i] == INFINITY && m[j] == INFINITY ? 1
                                   : tu_len(tu_sub(mine[j].position, mine[i].position)) >= R - 1e-9,
                               "scene %ld step %d: balls %d and %d end overlapping", scene, step, i, j);
                }
            }
            int same = rw.count == rs.count;
            for (int i = 0; i < n && same; i++)
                same = fabs(mine[i].position.x - b[i].position.x) <= 1e-9 * w &&
                       fabs(mine[i].position.y - b[i].position.y) <= 1e-9 * w;
            if (!same) {
                differ++;
                memcpy(mine, b, sizeof b); /* carry on from the same state */
                continue;
            }
            for (int k = 0; k < ws.n; k++) {
                const c2d_contact_record *a = &ws.r[k], *e = &ss.r[k];
                int i = e->contact.index;
                ENSURE(ws.ball[k] == ss.ball[k]);
                if (i >= 0)
                    ENSURE_MSG(a->id == r.ids[i] && a->user == (uintptr_t)i,
                               "scene %ld step %d: record %d names entry %lu, the set's tile %d", scene, step, k,
                               (unsigned long)a->user, i);
                else
                    ENSURE(a->id == 0 && a->user == 0 && a->contact.index == i);
            }
        }
    }
    printf("# world balls among tiles: %ld steps, %ld contacts, %ld steps differing from the set\n", steps,
           contacts, differ);
    ENSURE_MSG(contacts > steps, "only %ld contacts in %ld steps: the scenes were not exercised", contacts, steps);
    ENSURE_MSG(differ * 100 <= steps, "%ld of %ld steps differ from the static set", differ, steps);
    sink_free(&ws);
    sink_free(&ss);
    room_free(&r);
}

/* respond: wall 0 ignored, wall 1 crossed, the rest bounce; counts its calls per user value. */
static c2d_response pass_cross_bounce(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)id;
    ((int *)ctx)[user < 8 ? user : 7]++;
    return user == 0 ? C2D_RESPONSE_NONE : user == 1 ? C2D_RESPONSE_CROSS : C2D_RESPONSE_BOUNCE;
}

/* accept: counts its calls per user value, accepts all. */
static int count_accept(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)id;
    ((int *)ctx)[user < 8 ? user : 7]++;
    return 1;
}

TEST(world_balls_honour_the_filter_and_responses)
{
    /* Walls across the way at x = 4, 8, 12 (user values 0, 1, 2) and one at 16 of category 2 (user 3),
     * which the filter leaves out; a level floor below. Two balls run right at 14: through wall 0
     * (ignored), across wall 1 (reported), back off wall 2. Two more meet head-on; one falls onto the
     * level's floor. */
    c2d_world *world;
    ENSURE_OK(c2d_world_new(&world));
    c2d_shape *walls[4], *floor_shape;
    c2d_world_id ids[4];
    for (int i = 0; i < 4; i++) {
        ENSURE_OK(c2d_rect_new(4.0 + 4 * i, 0, 0.2, 20, 0, &walls[i]));
        ENSURE_OK(c2d_world_add(world, walls[i], (uintptr_t)i, &ids[i]));
    }
    ENSURE_OK(c2d_world_set_bits(world, ids[3], 2, C2D_WORLD_ALL_BITS));
    ENSURE_OK(c2d_rect_new(20, -21, 40, 2, 0, &floor_shape)); /* its top at y = -20 */
    c2d_static_set *level;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&floor_shape, 1, NULL, &level));
    ENSURE_OK(c2d_static_set_set_user(level, 0, 1000));
    ENSURE_OK(c2d_world_set_level(world, level));
    c2d_ball b[5] = {{{0, 0}, {14, 0}, 0.5},
                     {{0, 3}, {14, 0}, 0.5},
                     {{0, -6}, {1, 0}, 0.5},
                     {{2.5, -6}, {-1, 0}, 0.5},
                     {{30, -18}, {0, -5}, 1}};
    int asked[8] = {0}, accepted[8] = {0};
    c2d_world_filter f = {1, C2D_WORLD_ALL_BITS & ~2u, count_accept, accepted};
    static sink s;
    c2d_move_result res;
    ENSURE_OK(c2d_world_step_balls(world, b, NULL, 5, 1, &f, pass_cross_bounce, asked, NULL, NULL, &res, keep_world,
                                   &s));
    /* Balls 0 and 1 bounce off wall 2's face (x = 11.9) at t = 11.4 / 14 and end 14 (1 - t) back. */
    for (int i = 0; i < 2; i++) {
        ENSURE_NEAR(b[i].position.x, 11.4 - (14 - 11.4), 1e-9);
        ENSURE(b[i].velocity.x == -14 && b[i].velocity.y == 0);
    }
    /* Balls 2 and 3 meet at t = 0.75 and swap velocities; ball 4 bounces off the floor at t = 0.2. */
    ENSURE_NEAR(b[2].position.x, 0.75 - 0.25, 1e-12);
    ENSURE_NEAR(b[3].position.x, 1.75 + 0.25, 1e-12);
    ENSURE_NEAR(b[4].position.y, -19 + 5 * 0.8, 1e-12);
    ENSURE(res.count == s.n && s.n == 2 + 2 + 2 + 1);
    int crossed = 0, bounced = 0, met_ball = 0, floor_met = 0;
    for (int k = 0; k < s.n; k++) {
        const c2d_contact_record *rec = &s.r[k];
        ENSURE(k == 0 || rec->contact.t >= s.r[k - 1].contact.t);
        if (s.ball[k] < 2) {
            ENSURE(rec->id == ids[1] || rec->id == ids[2]);
            ENSURE(rec->user == (rec->id == ids[1] ? 1u : 2u));
            if (rec->id == ids[1]) {
                crossed++;
                ENSURE(rec->contact.response == C2D_RESPONSE_CROSS);
            } else {
                bounced++;
                ENSURE(rec->contact.response == C2D_RESPONSE_BOUNCE && rec->contact.normal.x == -1);
            }
        } else if (s.ball[k] < 4) {
            met_ball++;
            int other = s.ball[k] == 2 ? 3 : 2;
            ENSURE(rec->id == 0 && rec->user == 0 && rec->contact.index == -1 - other);
            ENSURE_NEAR(rec->contact.t, 0.75, 1e-12);
        } else {
            floor_met++;
            ENSURE(rec->id == 0 && rec->contact.index == 0 && rec->user == 1000);
            ENSURE(rec->contact.normal.y == 1);
        }
    }
    ENSURE(crossed == 2 && bounced == 2 && met_ball == 2 && floor_met == 1);
    sink_free(&s);
    for (int k = 0; k < s.n; k++) /* the pair's two records together, the lower ball's first */
        if (s.ball[k] == 2) {
            ENSURE(k + 1 < s.n && s.ball[k + 1] == 3);
            break;
        }
    /* Each callback asked once per entry it saw; the filtered wall neither accepted nor answered. */
    for (int u = 0; u < 3; u++)
        ENSURE_MSG(asked[u] == 1 && accepted[u] == 1, "wall %d: respond asked %d times, accept %d", u, asked[u],
                   accepted[u]);
    ENSURE(asked[3] == 0 && accepted[3] == 0);
    c2d_world_destroy(world);
    c2d_static_set_destroy(level);
    c2d_shape_destroy(floor_shape);
    for (int i = 0; i < 4; i++)
        c2d_shape_destroy(walls[i]);
}

TEST(world_balls_thrown_beyond_the_first_scope_meet_what_stands_there)
{
    /* A heavy ball at 10 a unit of time strikes a light one at rest 0.5 away: the light one flies off
     * at almost 20, past the box of the balls grown by the heavy one's path over the step of 0.85,
     * towards a wall at x = 17 that the first scope does not hold. It must bounce off the wall (and end
     * before the heavy ball catches it up again), as in a static set of the wall. */
    c2d_shape *wall, *flip, *roof;
    ENSURE_OK(c2d_rect_new(17, 0, 0.2, 10, 0, &wall));
    c2d_world *world;
    ENSURE_OK(c2d_world_new(&world));
    c2d_world_id wid;
    ENSURE_OK(c2d_world_add(world, wall, 5, &wid));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&wall, 1, NULL, &set));
    c2d_ball b[2] = {{{0, 0}, {10, 0}, 1}, {{2.5, 0}, {0, 0}, 1}}, sb[2];
    memcpy(sb, b, sizeof b);
    double m[2] = {1000, 1};
    static sink s;
    c2d_move_result rw, rs;
    ENSURE_OK(c2d_world_step_balls(world, b, m, 2, 0.85, NULL, NULL, NULL, NULL, NULL, &rw, keep_world, &s));
    int met_wall = 0;
    for (int k = 0; k < s.n; k++)
        met_wall |= s.ball[k] == 1 && s.r[k].id == wid && s.r[k].user == 5;
    ENSURE_MSG(met_wall, "%d records, the light ball at (%g, %g)", s.n, b[1].position.x, b[1].position.y);
    ENSURE_MSG(b[1].position.x + 1 <= 16.9 + 1e-9 && b[1].velocity.x < 0, "the light ball went through to %g",
               b[1].position.x);
    ENSURE_OK(c2d_static_set_step_balls(set, sb, m, 2, 0.85, NULL, NULL, &rs, NULL, NULL));
    ENSURE(memcmp(b, sb, sizeof b) == 0 && same_result(&rw, &rs));
    c2d_static_set_destroy(set);

    /* test_world_motion.c's flipper throws a ball resting on it near its tip up at 6000 a second, 100
     * in a step of 1/60, through a thin roof 40 above that no scope of the balls at rest holds; another
     * ball rolls far away. It must bounce off the roof's underside, as in a static set of the two. */
    ENSURE_OK(c2d_world_remove(world, wid));
    ENSURE_OK(c2d_rect_new(55, 0, 110, 18, 0, &flip));
    ENSURE_OK(c2d_rect_new(100, 60, 200, 0.5, 0, &roof));
    c2d_world_id fid, rid;
    ENSURE_OK(c2d_world_add(world, flip, 0, &fid));
    ENSURE_OK(c2d_world_add(world, roof, 1, &rid));
    c2d_motion swing = tu_motion(0, 0, 40, -55, 0);
    ENSURE_OK(c2d_world_set_motion(world, fid, &swing));
    c2d_ball p[2] = {{{100, 17}, {0, 0}, 8}, {{-300, 17}, {1, 0}, 8}}, sp[2];
    memcpy(sp, p, sizeof p);
    c2d_move_options opt = c2d_move_options_default();
    opt.restitution = 0.5;
    ENSURE_OK(c2d_world_step_balls(world, p, NULL, 2, 1.0 / 60, NULL, NULL, NULL, &opt, NULL, &rw, keep_world, &s));
    int met_roof = 0;
    for (int k = 0; k < s.n; k++)
        met_roof |= s.ball[k] == 0 && s.r[k].id == rid;
    ENSURE_MSG(met_roof, "%d records, the ball at (%g, %g)", s.n, p[0].position.x, p[0].position.y);
    ENSURE_MSG(p[0].position.y + p[0].radius <= 60 - 0.25 + 1e-9 && p[0].velocity.y < 0,
               "the ball went through the roof to %g", p[0].position.y);
    const c2d_shape *shapes[2] = {flip, roof};
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &swing));
    ENSURE_OK(c2d_static_set_step_balls(set, sp, NULL, 2, 1.0 / 60, &opt, NULL, &rs, NULL, NULL));
    ENSURE(memcmp(p, sp, sizeof p) == 0 && same_result(&rw, &rs));
    sink_free(&s);
    c2d_static_set_destroy(set);
    c2d_world_destroy(world);
    c2d_shape_destroy(roof);
    c2d_shape_destroy(flip);
    c2d_shape_destroy(wall);
}

static c2d_response bad_response(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)id;
    (void)user;
    ++*(int *)ctx;
    return (c2d_response)42;
}

TEST(world_balls_refuse_bad_input_and_change_nothing)
{
    c2d_world *world;
    c2d_shape *wall;
    c2d_world_id id;
    ENSURE_OK(c2d_world_new(&world));
    ENSURE_OK(c2d_rect_new(5, 5, 0.2, 10, 0, &wall));
    ENSURE_OK(c2d_world_add(world, wall, 0, &id));
    c2d_ball b[3], keep_b[3];
    for (int i = 0; i < 3; i++) {
        b[i].position = V(1 + 1.5 * i, 5);
        b[i].velocity = V(3, 1);
        b[i].radius = 0.5;
    }
    memcpy(keep_b, b, sizeof b);
    double m[3] = {1, 2, 3};
    int asked[8] = {0}, accepted[8] = {0}, reports = 0;
    c2d_world_filter f = {C2D_WORLD_ALL_BITS, C2D_WORLD_ALL_BITS, count_accept, accepted};
    c2d_move_result res, before;
    memset(&res, 0x5a, sizeof res);
    before = res;
#define STEP(world_, balls_, masses_, n_, dt_, options_, ball_options_)                                          \
    c2d_world_step_balls(world_, balls_, masses_, n_, dt_, &f, pass_cross_bounce, asked, options_, ball_options_, \
                         &res, refuse, &reports)
    ENSURE(STEP(world, b, m, -1, 1, NULL, NULL) == C2D_ERR_RANGE);
    ENSURE(STEP(NULL, b, m, 3, 1, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(STEP(world, NULL, m, 3, 1, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(STEP(world, b, m, 3, -1, NULL, NULL) == C2D_ERR_RANGE);
    ENSURE(STEP(world, b, m, 3, NAN, NULL, NULL) == C2D_ERR_NOT_FINITE);
    ENSURE(STEP(world, b, m, 3, INFINITY, NULL, NULL) == C2D_ERR_NOT_FINITE);
    m[1] = -2;
    ENSURE(STEP(world, b, m, 3, 1, NULL, NULL) == C2D_ERR_RANGE);
    m[1] = 0;
    ENSURE(STEP(world, b, m, 3, 1, NULL, NULL) == C2D_ERR_RANGE);
    m[1] = NAN;
    ENSURE(STEP(world, b, m, 3, 1, NULL, NULL) == C2D_ERR_NOT_FINITE);
    m[1] = 2;
    c2d_balls_options bo = c2d_balls_options_default();
    bo.restitution = 1.5;
    ENSURE(STEP(world, b, m, 3, 1, NULL, &bo) == C2D_ERR_RANGE);
    bo.restitution = NAN;
    ENSURE(STEP(world, b, m, 3, 1, NULL, &bo) == C2D_ERR_NOT_FINITE);
    bo = c2d_balls_options_default();
    bo.max_events = -1;
    ENSURE(STEP(world, b, m, 3, 1, NULL, &bo) == C2D_ERR_RANGE);
    c2d_move_options o = c2d_move_options_default();
    o.restitution = 2;
    ENSURE(STEP(world, b, m, 3, 1, &o, NULL) == C2D_ERR_RANGE);
    o.restitution = NAN;
    ENSURE(STEP(world, b, m, 3, 1, &o, NULL) == C2D_ERR_NOT_FINITE);
    o = c2d_move_options_default();
    c2d_response per_shape[1] = {C2D_RESPONSE_TOUCH};
    o.responses = per_shape; /* only with a level */
    ENSURE(STEP(world, b, m, 3, 1, &o, NULL) == C2D_ERR_RANGE);
    b[2].radius = 0;
    ENSURE(STEP(world, b, m, 3, 1, NULL, NULL) == C2D_ERR_SIZE);
    b[2].radius = 0.5;
    b[1].position.x = NAN;
    ENSURE(STEP(world, b, m, 3, 1, NULL, NULL) == C2D_ERR_NOT_FINITE);
    b[1].position.x = keep_b[1].position.x;
    b[0].velocity.y = 1e300;
    ENSURE(STEP(world, b, m, 3, 1, NULL, NULL) == C2D_ERR_RANGE);
    b[0].velocity.y = keep_b[0].velocity.y;
    ENSURE(memcmp(b, keep_b, sizeof b) == 0 && memcmp(&res, &before, sizeof res) == 0);
    /* None of it asked a callback. */
    for (int u = 0; u < 8; u++)
        ENSURE_MSG(asked[u] == 0 && accepted[u] == 0, "a refused call asked about entry %d", u);
    ENSURE(reports == 0);
    /* A report that refuses: its status, once, and the balls as they were. */
    ENSURE(STEP(world, b, m, 3, 1, NULL, NULL) == C2D_ERR_CAPACITY);
    ENSURE(reports == 1 && asked[0] == 1);
    ENSURE(memcmp(b, keep_b, sizeof b) == 0 && memcmp(&res, &before, sizeof res) == 0);
#undef STEP
    /* A respond that answers no response: C2D_ERR_RANGE, the balls as they were. */
    int bad = 0;
    ENSURE(c2d_world_step_balls(world, b, m, 3, 1, NULL, bad_response, &bad, NULL, NULL, &res, keep_world, NULL) ==
           C2D_ERR_RANGE);
    ENSURE(bad == 1 && memcmp(b, keep_b, sizeof b) == 0 && memcmp(&res, &before, sizeof res) == 0);
    /* No ball: nothing asked, an empty report. */
    static sink s;
    s.n = -1;
    ENSURE_OK(c2d_world_step_balls(world, NULL, NULL, 0, 1, &f, pass_cross_bounce, asked, NULL, NULL, &res,
                                   keep_world, &s));
    ENSURE(s.n == 0 && s.calls == 1 && res.count == 0 && asked[0] == 1 && accepted[0] == 1);
    sink_free(&s);
    /* The world is unchanged by all of it. */
    int count = -1;
    ENSURE_OK(c2d_world_count(world, &count));
    ENSURE(count == 1);
    c2d_world_destroy(world);
    c2d_shape_destroy(wall);
}
