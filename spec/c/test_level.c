/* test_level.c - a world with a level (c2d_world_set_level), casts (c2d_static_set_cast,
 * c2d_world_cast), the world's push-out and the timed moves: one motion meets the level and the
 * entries as one static set of all their shapes would; with no entry near, it is the level's own call
 * bit for bit; casts answer a sweep's contact with the normal towards the mover; a timed move is its
 * untimed call for dt 1 bit for bit, and otherwise the untimed call with every member's velocity
 * times dt; bad input changes nothing. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define LEVEL_MAX 240
#define ENTRY_MAX 24

typedef struct scene {
    int nl, ne;
    c2d_shape *level_shapes[LEVEL_MAX];
    c2d_shape *entries[ENTRY_MAX];
    c2d_world_id ids[ENTRY_MAX];
    c2d_static_set *level; /* the level */
    c2d_static_set *all;   /* the level's shapes, then the entries' shapes: the reference */
    c2d_world *world;      /* the entries, with the level */
} scene;

static void scene_free(scene *s)
{
    c2d_world_destroy(s->world);
    c2d_static_set_destroy(s->level);
    c2d_static_set_destroy(s->all);
    for (int i = 0; i < s->nl; i++)
        c2d_shape_destroy(s->level_shapes[i]);
    for (int i = 0; i < s->ne; i++)
        c2d_shape_destroy(s->entries[i]);
    memset(s, 0, sizeof *s);
}

/* Walls round a 640x480 window, a 14x8 grid of bricks (every seventh turned, one in five a one-way
 * tile), and ne random circles and boxes (the "enemies") scattered over the window, some overlapping
 * bricks. Level shapes carry user values 1000 + i. */
static c2d_status scene_make(scene *s, int ne)
{
    memset(s, 0, sizeof *s);
    c2d_status st = C2D_OK;
    const double wall[4][4] = {{320, -5, 660, 10}, {320, 485, 660, 10}, {-5, 240, 10, 480}, {645, 240, 10, 480}};
    for (int i = 0; st == C2D_OK && i < 4; i++)
        st = c2d_rect_new(wall[i][0], wall[i][1], wall[i][2], wall[i][3], 0, &s->level_shapes[s->nl++]);
    for (int row = 0; st == C2D_OK && row < 8; row++)
        for (int col = 0; st == C2D_OK && col < 14; col++) {
            double angle = (row * 14 + col) % 7 == 3 ? 0.3 : 0.0;
            st = c2d_rect_new(80 + col * 36, 120 + row * 18, 36, 18, angle, &s->level_shapes[s->nl++]);
        }
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)s->level_shapes, s->nl, NULL, &s->level);
    for (int i = 0; st == C2D_OK && i < s->nl; i++) {
        st = c2d_static_set_set_user(s->level, i, (uintptr_t)(1000 + i));
        if (st == C2D_OK && i >= 4 && i % 5 == 0)
            st = c2d_static_set_set_one_way(s->level, i, tu_v(0, -1));
    }
    if (st == C2D_OK)
        st = c2d_world_new(&s->world);
    for (int i = 0; st == C2D_OK && i < ne; i++) {
        double y = c2d_test_uniform(30, 450);
        double x = c2d_test_uniform(30, 610);
        double r = c2d_test_uniform(4, 16);
        if (i % 2 == 0) {
            st = c2d_circle_new(x, y, r, &s->entries[s->ne]);
        } else {
            double angle = c2d_test_uniform(-1, 1);
            st = c2d_rect_new(x, y, 2 * r, r, angle, &s->entries[s->ne]);
        }
        if (st == C2D_OK)
            st = c2d_world_add(s->world, s->entries[s->ne], (uintptr_t)i, &s->ids[s->ne]);
        s->ne++;
    }
    if (st == C2D_OK)
        st = c2d_world_set_level(s->world, s->level);
    c2d_shape *shapes[LEVEL_MAX + ENTRY_MAX];
    for (int i = 0; i < s->nl; i++)
        shapes[i] = s->level_shapes[i];
    for (int i = 0; i < s->ne; i++)
        shapes[s->nl + i] = s->entries[i];
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)shapes, s->nl + s->ne, NULL, &s->all);
    for (int i = 0; st == C2D_OK && i < s->nl; i++) {
        c2d_vec2 dir;
        st = c2d_static_set_get_one_way(s->level, i, &dir);
        if (st == C2D_OK && (dir.x != 0 || dir.y != 0))
            st = c2d_static_set_set_one_way(s->all, i, dir);
        if (st == C2D_OK)
            st = c2d_static_set_set_user(s->all, i, (uintptr_t)(1000 + i));
    }
    return st;
}

/* Every record kept by a _report call. */
typedef struct kept {
    int n;
    c2d_contact_record r[64];
} kept;

static c2d_status keep(void *ctx, const c2d_contact_record *records, int count)
{
    kept *k = (kept *)ctx;
    k->n = count;
    for (int i = 0; i < count && i < 64; i++)
        k->r[i] = records[i];
    return C2D_OK;
}

static c2d_response enemies_cross(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)ctx;
    (void)id;
    (void)user;
    return C2D_RESPONSE_CROSS;
}

/* The reference's record k names what the world's record names: a level shape (id 0, its index and
 * value) or the entry at the same place. */
static int same_thing(const scene *s, const c2d_contact_record *ref, const c2d_contact_record *got)
{
    int i = ref->contact.index;
    if (i < s->nl)
        return got->id == 0 && got->contact.index == i && got->user == (uintptr_t)(1000 + i);
    return got->id == s->ids[i - s->nl] && got->user == (uintptr_t)(i - s->nl);
}

static int same_record(const scene *s, const c2d_contact_record *a, const c2d_contact_record *b)
{
    return same_thing(s, a, b) && a->contact.t == b->contact.t && tu_same_vec(a->contact.normal, b->contact.normal) &&
           tu_same_vec(a->position, b->position) && a->contact.response == b->contact.response;
}

TEST(level_with_no_entry_near_is_the_level_s_own_call_bit_for_bit)
{
    scene s;
    ENSURE_OK(scene_make(&s, 0));
    c2d_move_options o = c2d_move_options_default();
    long runs = c2d_test_iterations(400);
    for (int run = 0; run < runs; run++) {
        c2d_ball b;
        b.position.y = c2d_test_uniform(20, 460);
        b.position.x = c2d_test_uniform(20, 620);
        b.velocity.y = c2d_test_uniform(-900, 900);
        b.velocity.x = c2d_test_uniform(-900, 900);
        b.radius = c2d_test_uniform(1, 8);
        c2d_ball mine = b, ref = b;
        c2d_move_result rm, rr;
        kept km, kr;
        ENSURE_OK(c2d_world_step_ball_report(s.world, &mine, 1.0 / 30, NULL, NULL, NULL, &o, &rm, keep, &km));
        ENSURE_OK(c2d_static_set_step_ball_report(s.level, &ref, 1.0 / 30, &o, &rr, keep, &kr));
        ENSURE(tu_same_vec(mine.position, ref.position) && tu_same_vec(mine.velocity, ref.velocity));
        ENSURE(km.n == kr.n);
        for (int k = 0; k < km.n && k < 64; k++) {
            ENSURE(km.r[k].id == 0 && km.r[k].contact.index == kr.r[k].contact.index);
            ENSURE(km.r[k].user == (uintptr_t)(1000 + kr.r[k].contact.index));
            ENSURE(km.r[k].contact.t == kr.r[k].contact.t && tu_same_vec(km.r[k].position, kr.r[k].position));
        }
        /* A box moved the same way. */
        c2d_shape *box;
        ENSURE_OK(c2d_rect_new(b.position.x, b.position.y, 2 * b.radius, b.radius, 0.2, &box));
        c2d_vec2 d = tu_scale(b.velocity, 1.0 / 30);
        ENSURE_OK(c2d_world_move_report(s.world, box, d, NULL, NULL, NULL, NULL, &rm, keep, &km));
        ENSURE_OK(c2d_static_set_move_report(s.level, box, d, NULL, &rr, keep, &kr));
        c2d_shape_destroy(box);
        ENSURE(tu_same_vec(rm.displacement, rr.displacement) && km.n == kr.n);
    }
    scene_free(&s);
}

TEST(level_and_entries_meet_as_one_set_of_all_their_shapes)
{
    int compared = 0, with_entries = 0;
    for (int world_no = 0; world_no < 6; world_no++) {
        scene s;
        ENSURE_OK(scene_make(&s, 8 + 3 * world_no));
        /* The reference: bounce off the level, cross the entries (as respond answers in the world). */
        c2d_response responses[LEVEL_MAX + ENTRY_MAX];
        for (int i = 0; i < s.nl + s.ne; i++)
            responses[i] = i < s.nl ? C2D_RESPONSE_BOUNCE : C2D_RESPONSE_CROSS;
        c2d_move_options ro = c2d_move_options_default();
        ro.responses = responses;
        long runs = c2d_test_iterations(150);
        for (int run = 0; run < runs; run++) {
            c2d_ball b;
            b.position.y = c2d_test_uniform(20, 460);
            b.position.x = c2d_test_uniform(20, 620);
            b.velocity.y = c2d_test_uniform(-1500, 1500);
            b.velocity.x = c2d_test_uniform(-1500, 1500);
            b.radius = c2d_test_uniform(1, 6);
            c2d_ball mine = b, ref = b;
            c2d_move_result rm, rr;
            kept km, kr;
            ENSURE_OK(c2d_world_step_ball_report(s.world, &mine, 1.0 / 20, NULL, enemies_cross, NULL, NULL, &rm,
                                                 keep, &km));
            ENSURE_OK(c2d_static_set_step_ball_report(s.all, &ref, 1.0 / 20, &ro, &rr, keep, &kr));
            ENSURE_MSG(tu_same_vec(mine.position, ref.position) && tu_same_vec(mine.velocity, ref.velocity),
                       "world %d run %d: ball ends at (%.17g, %.17g), one set of all at (%.17g, %.17g)", world_no,
                       run, mine.position.x, mine.position.y, ref.position.x, ref.position.y);
            ENSURE_MSG(km.n == kr.n, "world %d run %d: %d contacts, one set of all %d", world_no, run, km.n, kr.n);
            for (int k = 0; k < km.n && k < 64; k++) {
                ENSURE_MSG(same_record(&s, &kr.r[k], &km.r[k]), "world %d run %d contact %d differs", world_no, run,
                           k);
                with_entries += kr.r[k].contact.index >= s.nl;
            }
            compared++;
        }
        scene_free(&s);
    }
    ENSURE(compared == 6 * c2d_test_iterations(150));
    ENSURE_MSG(compared < 300 || with_entries > compared / 18, "only %d contacts with entries: the comparison is too weak", with_entries);
}

TEST(level_responses_of_the_level_s_shapes_come_from_options_responses)
{
    scene s;
    ENSURE_OK(scene_make(&s, 0));
    c2d_response responses[LEVEL_MAX];
    for (int i = 0; i < s.nl; i++)
        responses[i] = i < 4 ? C2D_RESPONSE_BOUNCE : C2D_RESPONSE_NONE; /* the bricks ignored */
    c2d_move_options o = c2d_move_options_default();
    o.responses = responses;
    c2d_ball b = {{300, 300}, {0, -4000}, 3};
    c2d_move_result r;
    kept k;
    ENSURE_OK(c2d_world_step_ball_report(s.world, &b, 0.1, NULL, NULL, NULL, &o, &r, keep, &k));
    ENSURE(k.n >= 1 && k.r[0].id == 0 && k.r[0].contact.index == 0); /* through the bricks to the top wall */
    /* Without a level, a per-shape array means nothing in a world: refused, nothing changed. */
    ENSURE_OK(c2d_world_set_level(s.world, NULL));
    const c2d_static_set *got = s.level;
    ENSURE_OK(c2d_world_get_level(s.world, &got));
    ENSURE(got == NULL);
    c2d_ball before = b;
    ENSURE(c2d_world_step_ball_report(s.world, &b, 0.1, NULL, NULL, NULL, &o, &r, keep, &k) == C2D_ERR_RANGE);
    ENSURE(tu_same_vec(b.position, before.position));
    ENSURE(c2d_world_set_level(NULL, s.level) == C2D_ERR_NULL && c2d_world_get_level(s.world, NULL) == C2D_ERR_NULL);
    scene_free(&s);
}

/* A response out of range in options->responses is refused for every shape of the level, as the set's
 * own calls refuse it, wherever the motion goes: near an entry the level's shapes within reach join a
 * scope of their own, and only their responses were read, so one far away was accepted there and
 * refused with no entry near (found by fuzz op world_level_move). */
TEST(level_response_out_of_range_is_refused_near_an_entry_too)
{
    c2d_shape *wall, *far_wall, *enemy, *mover;
    ENSURE_OK(c2d_rect_new(0, -5, 20, 2, 0, &wall));
    ENSURE_OK(c2d_rect_new(500, 500, 2, 2, 0, &far_wall));
    ENSURE_OK(c2d_circle_new(3, 0, 1, &enemy));
    ENSURE_OK(c2d_circle_new(0, 0, 1, &mover));
    const c2d_shape *shapes[2] = {wall, far_wall};
    c2d_static_set *level;
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &level));
    c2d_world *w;
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_world_set_level(w, level));
    c2d_response responses[2] = {C2D_RESPONSE_SLIDE, (c2d_response)5};
    c2d_move_options o = c2d_move_options_default();
    o.responses = responses;
    c2d_move_result r;
    c2d_ball b = {{0, 0}, {0, -3}, 1};
    ENSURE(c2d_static_set_move(level, mover, tu_v(0, -3), &o, &r, NULL, 0) == C2D_ERR_RANGE);
    ENSURE(c2d_world_move(w, mover, tu_v(0, -3), NULL, NULL, NULL, &o, &r, NULL, 0) == C2D_ERR_RANGE); /* no entry */
    c2d_world_id id;
    ENSURE_OK(c2d_world_add(w, enemy, 0, &id));
    ENSURE_MSG(c2d_world_move(w, mover, tu_v(0, -3), NULL, NULL, NULL, &o, &r, NULL, 0) == C2D_ERR_RANGE,
               "a world move near an entry took a response of 5 for a level shape out of reach");
    ENSURE(c2d_world_step_ball(w, &b, 1, NULL, NULL, NULL, &o, &r, NULL, 0) == C2D_ERR_RANGE);
    ENSURE(b.position.x == 0 && b.position.y == 0 && b.velocity.y == -3);
    c2d_world_destroy(w);
    c2d_static_set_destroy(level);
    c2d_shape_destroy(wall);
    c2d_shape_destroy(far_wall);
    c2d_shape_destroy(enemy);
    c2d_shape_destroy(mover);
}

/* With a respond callback for the entries, the level's shapes take options->response, or the call's
 * default: near an entry (the level's shapes then join a scope of their own) as far from any. */
TEST(level_shapes_take_the_call_s_response_beside_a_respond_callback)
{
    scene s;
    ENSURE_OK(scene_make(&s, 0));
    c2d_shape *enemy;
    ENSURE_OK(c2d_circle_new(300, 40, 5, &enemy));
    c2d_world_id id;
    ENSURE_OK(c2d_world_add(s.world, enemy, 7, &id));
    for (int near = 0; near < 2; near++) {
        double x = near ? 300 : 600;
        c2d_move_options o = c2d_move_options_default();
        o.response = C2D_RESPONSE_TOUCH;
        c2d_ball b = {{x, 60}, {0, -1000}, 3};
        c2d_move_result r;
        kept k;
        ENSURE_OK(c2d_world_step_ball_report(s.world, &b, 0.2, NULL, enemies_cross, NULL, &o, &r, keep, &k));
        ENSURE_MSG(k.n == 1 + near, "near %d: %d contacts", near, k.n);
        ENSURE(!near || (k.r[0].id == id && k.r[0].contact.response == C2D_RESPONSE_CROSS));
        ENSURE(k.r[k.n - 1].id == 0 && k.r[k.n - 1].contact.index == 0); /* the top wall, touched */
        ENSURE(k.r[k.n - 1].contact.response == C2D_RESPONSE_TOUCH);
        ENSURE_NEAR(b.position.y, 3, 1e-9);
        /* Without options, the ball step's default: bounce. */
        c2d_ball c = {{x, 60}, {0, -1000}, 3};
        ENSURE_OK(c2d_world_step_ball_report(s.world, &c, 0.2, NULL, enemies_cross, NULL, NULL, &r, keep, &k));
        int wall = near; /* after the enemy, when near; it may cross the enemy again on the way back */
        ENSURE(k.n > wall && k.r[wall].id == 0 && k.r[wall].contact.response == C2D_RESPONSE_BOUNCE);
        ENSURE(fabs(c.velocity.y) == 1000); /* bounced, and kept its speed (a brick may send it up again) */
    }
    scene_free(&s);
    c2d_shape_destroy(enemy);
}

/* A cast through the world answers as a cast through one set of all the shapes; a set's cast is its
 * sweep with the normal turned towards the mover, the mover's place at the contact and the value. */
TEST(cast_answers_the_sweep_towards_the_mover_in_a_set_and_a_world)
{
    scene s;
    ENSURE_OK(scene_make(&s, 14));
    int hits = 0, inside = 0, same_way_out = 0;
    long runs = c2d_test_iterations(1500);
    for (int run = 0; run < runs; run++) {
        double y = c2d_test_uniform(20, 460);
        double x = c2d_test_uniform(20, 620);
        double r = c2d_test_uniform(1, 10);
        c2d_shape *mover;
        if (run % 3 == 0)
            ENSURE_OK(c2d_circle_new(x, y, r, &mover));
        else
            ENSURE_OK(c2d_rect_new(x, y, 2 * r, r, c2d_test_uniform(-2, 2), &mover));
        c2d_vec2 d;
        d.y = c2d_test_uniform(-200, 200);
        d.x = c2d_test_uniform(-200, 200);
        c2d_toi toi;
        int index;
        c2d_cast c, w;
        ENSURE_OK(c2d_static_set_sweep(s.all, mover, d, &toi, &index));
        ENSURE_OK(c2d_static_set_cast(s.all, mover, d, &c));
        ENSURE_OK(c2d_world_cast(s.world, mover, d, NULL, &w));
        c2d_vec2 p;
        ENSURE_OK(c2d_shape_get_position(mover, &p));
        ENSURE((int)c.state == (int)toi.state && c.t == toi.t && index == c.index);
        ENSURE(c.normal.x == -toi.normal.x && c.normal.y == -toi.normal.y && tu_same_vec(c.point, toi.point));
        ENSURE(c.depth == toi.depth);
        if (c.state == C2D_CAST_NONE) {
            ENSURE(c.t == 1 && c.index == -1 && c.user == 0 && tu_same_vec(c.position, tu_add(p, d)));
        } else {
            hits++;
            inside += c.state == C2D_CAST_INSIDE;
            ENSURE(c.user == (index < s.nl ? (uintptr_t)(1000 + index) : 0));
            ENSURE_NEAR(tu_len(c.normal), 1, 1e-12);
            /* The normal points out of the shape met, towards the mover: the mover's reference point,
             * for a disc its centre, lies on that side of the contact point. */
            if (run % 3 == 0 && c.state == C2D_CAST_HIT)
                ENSURE(tu_dot(tu_sub(c.position, c.point), c.normal) > 0);
            ENSURE_NEAR(c.position.x, p.x + c.t * d.x, 1e-9 * (1 + fabs(p.x)));
            ENSURE_NEAR(c.position.y, p.y + c.t * d.y, 1e-9 * (1 + fabs(p.y)));
        }
        /* The world's answer: the same contact, named as the world names it. A mover that starts
         * inside is told so by both; which way out each names depends on the shapes it looks at (the
         * world looks near the mover, growing while the way out leaves them), so only the state is
         * compared then. */
        ENSURE_MSG(w.state == c.state, "run %d: world cast state %d, one set of all %d", run, (int)w.state, (int)c.state);
        if (c.state == C2D_CAST_INSIDE) {
            ENSURE(w.t == 0 && w.depth > 0);
            same_way_out += w.id == 0 && w.index == index && tu_same_vec(w.normal, c.normal);
        } else if (c.state == C2D_CAST_HIT) {
            ENSURE_MSG(w.t == c.t && tu_same_vec(w.normal, c.normal) && tu_same_vec(w.point, c.point),
                       "run %d: world cast t %.17g n (%.17g, %.17g), one set of all t %.17g n (%.17g, %.17g)", run, w.t,
                       w.normal.x, w.normal.y, c.t, c.normal.x, c.normal.y);
            if (index < s.nl)
                ENSURE(w.id == 0 && w.index == index && w.user == (uintptr_t)(1000 + index));
            else
                ENSURE(w.id == s.ids[index - s.nl] && w.index == -1 && w.user == (uintptr_t)(index - s.nl));
        } else {
            ENSURE(w.t == 1 && tu_same_vec(w.position, c.position) && w.id == 0 && w.index == -1);
        }
        c2d_shape_destroy(mover);
    }
    ENSURE_MSG(hits > runs / 5 && inside > runs / 50, "%d hits, %d inside: too few to compare", hits, inside);
    /* Near shapes decide nearly every way out, as they do in one set of all. */
    ENSURE_MSG(same_way_out >= inside * 9 / 10, "%d of %d ways out agree", same_way_out, inside);
    scene_free(&s);
}

TEST(world_push_out_takes_the_mover_out_of_every_shape_of_the_level_and_the_world)
{
    scene s;
    ENSURE_OK(scene_make(&s, 20));
    int pushed = 0, same = 0;
    long runs = c2d_test_iterations(1500);
    for (int run = 0; run < runs; run++) {
        double y = c2d_test_uniform(20, 460);
        double x = c2d_test_uniform(20, 620);
        double r = c2d_test_uniform(1, 12);
        c2d_shape *mover;
        if (run % 2 == 0)
            ENSURE_OK(c2d_circle_new(x, y, r, &mover));
        else
            ENSURE_OK(c2d_rect_new(x, y, 2 * r, r, c2d_test_uniform(-2, 2), &mover));
        c2d_vec2 a, b, again;
        ENSURE_OK(c2d_static_set_push_out(s.all, mover, &a));
        ENSURE_OK(c2d_world_push_out(s.world, mover, NULL, &b));
        /* Out of every shape of the level and the world, whichever way it went. */
        ENSURE_OK(c2d_shape_move(mover, b));
        ENSURE_OK(c2d_static_set_push_out(s.all, mover, &again));
        ENSURE_MSG(again.x == 0 && again.y == 0, "run %d: pushed out by (%.17g, %.17g), still inside by (%g, %g)", run,
                   b.x, b.y, again.x, again.y);
        ENSURE((a.x == 0 && a.y == 0) == (b.x == 0 && b.y == 0));
        same += tu_same_vec(a, b);
        pushed += a.x != 0 || a.y != 0;
        c2d_shape_destroy(mover);
    }
    ENSURE_MSG(pushed > runs / 15, "only %d push-outs", pushed);
    /* Nearly always the way out of one set of all the shapes: the near shapes decide it. */
    ENSURE_MSG(runs - same <= pushed / 10, "%ld of %d push-outs differ from one set of all", runs - same, pushed);
    scene_free(&s);
}

TEST(timed_moves_with_dt_one_are_the_untimed_calls_bit_for_bit)
{
    scene s;
    ENSURE_OK(scene_make(&s, 10));
    /* Give a few bricks velocities and one a turn, so the time matters. */
    ENSURE_OK(c2d_static_set_set_velocity(s.level, 30, tu_v(40, -20)));
    c2d_motion spin = tu_motion(0, 0, 2.0, 0, 0);
    ENSURE_OK(c2d_static_set_set_motion(s.level, 50, &spin));
    long runs = c2d_test_iterations(300);
    for (int run = 0; run < runs; run++) {
        double y = c2d_test_uniform(20, 460);
        double x = c2d_test_uniform(20, 620);
        c2d_shape *box;
        ENSURE_OK(c2d_rect_new(x, y, 10, 6, c2d_test_uniform(-1, 1), &box));
        c2d_vec2 d;
        d.y = c2d_test_uniform(-60, 60);
        d.x = c2d_test_uniform(-60, 60);
        c2d_move_result a, b;
        kept ka, kb;
        ENSURE_OK(c2d_static_set_move_report(s.level, box, d, NULL, &a, keep, &ka));
        ENSURE_OK(c2d_static_set_move_timed_report(s.level, box, d, 1.0, NULL, &b, keep, &kb));
        ENSURE(tu_same_vec(a.displacement, b.displacement) && tu_same_vec(a.velocity, b.velocity) && ka.n == kb.n);
        ENSURE_OK(c2d_world_move_report(s.world, box, d, NULL, NULL, NULL, NULL, &a, keep, &ka));
        ENSURE_OK(c2d_world_move_timed_report(s.world, box, d, 1.0, NULL, NULL, NULL, NULL, &b, keep, &kb));
        ENSURE(tu_same_vec(a.displacement, b.displacement) && tu_same_vec(a.velocity, b.velocity) && ka.n == kb.n);
        c2d_motion m = tu_motion(d.x, d.y, c2d_test_uniform(-3, 3), 2, 1);
        double ta, tb;
        ENSURE_OK(c2d_static_set_move_turning_report(s.level, box, &m, NULL, &a, &ta, keep, &ka));
        ENSURE_OK(c2d_static_set_move_turning_timed_report(s.level, box, &m, 1.0, NULL, &b, &tb, keep, &kb));
        ENSURE(tu_same_vec(a.displacement, b.displacement) && ta == tb && ka.n == kb.n);
        ENSURE_OK(c2d_world_move_turning_report(s.world, box, &m, NULL, NULL, NULL, NULL, &a, &ta, keep, &ka));
        ENSURE_OK(c2d_world_move_turning_timed_report(s.world, box, &m, 1.0, NULL, NULL, NULL, NULL, &b, &tb, keep,
                                                      &kb));
        ENSURE(tu_same_vec(a.displacement, b.displacement) && ta == tb && ka.n == kb.n);
        c2d_shape_destroy(box);
    }
    scene_free(&s);
}

/* A move lasting dt through members moving at v per unit of time is the untimed move (one unit)
 * through the same members moving at v * dt: the one unit of velocity. The result's velocity is per
 * unit of time. */
TEST(timed_move_over_dt_meets_members_where_their_velocity_takes_them_in_dt)
{
    int contacts = 0;
    long runs = c2d_test_iterations(400);
    for (int run = 0; run < runs; run++) {
        c2d_shape *tiles[3];
        ENSURE_OK(c2d_rect_new(0, 0, 40, 4, 0, &tiles[0]));
        ENSURE_OK(c2d_rect_new(50, 10, 4, 40, 0, &tiles[1]));
        ENSURE_OK(c2d_rect_new(-30, 20, 10, 10, 0.4, &tiles[2]));
        c2d_static_set *timed, *unit;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)tiles, 3, NULL, &timed));
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)tiles, 3, NULL, &unit));
        double dt = c2d_test_uniform(0.01, 0.5);
        c2d_vec2 v;
        v.y = c2d_test_uniform(-200, 200);
        v.x = c2d_test_uniform(-200, 200);
        ENSURE_OK(c2d_static_set_set_velocity(timed, 0, v));
        ENSURE_OK(c2d_static_set_set_velocity(unit, 0, tu_scale(v, dt)));
        c2d_shape *box;
        double y = c2d_test_uniform(5, 30);
        double x = c2d_test_uniform(-20, 40);
        ENSURE_OK(c2d_rect_new(x, y, 6, 6, 0, &box));
        c2d_vec2 d;
        d.y = c2d_test_uniform(-40, 10);
        d.x = c2d_test_uniform(-40, 40);
        c2d_move_result a, b;
        kept ka, kb;
        ENSURE_OK(c2d_static_set_move_report(unit, box, d, NULL, &a, keep, &ka));
        ENSURE_OK(c2d_static_set_move_timed_report(timed, box, d, dt, NULL, &b, keep, &kb));
        ENSURE_MSG(ka.n == kb.n, "run %d: %d contacts, timed %d", run, ka.n, kb.n);
        ENSURE_NEAR(a.displacement.x, b.displacement.x, 1e-9 * (1 + fabs(x)));
        ENSURE_NEAR(a.displacement.y, b.displacement.y, 1e-9 * (1 + fabs(y)));
        ENSURE_NEAR(a.velocity.x, b.velocity.x * dt, 1e-9 * (1 + tu_len(d)));
        ENSURE_NEAR(a.velocity.y, b.velocity.y * dt, 1e-9 * (1 + tu_len(d)));
        /* The members met, in order, and when the first was met. (A slide that touches the face it
         * slides along again does so at a time rounding decides: those times are not compared.) */
        for (int k = 0; k < ka.n && k < 64; k++)
            ENSURE(ka.r[k].contact.index == kb.r[k].contact.index);
        if (ka.n > 0)
            ENSURE_NEAR(ka.r[0].contact.t, kb.r[0].contact.t, 1e-9);
        contacts += ka.n;
        c2d_shape_destroy(box);
        c2d_static_set_destroy(timed);
        c2d_static_set_destroy(unit);
        for (int i = 0; i < 3; i++)
            c2d_shape_destroy(tiles[i]);
    }
    ENSURE_MSG(contacts > runs / 4, "only %d contacts", contacts);
}

TEST(casts_push_outs_and_timed_moves_refuse_bad_input_and_change_nothing)
{
    scene s;
    ENSURE_OK(scene_make(&s, 4));
    c2d_shape *box, *chain;
    ENSURE_OK(c2d_rect_new(300, 60, 10, 10, 0, &box));
    c2d_vec2 pts[3] = {{0, 0}, {10, 0}, {10, 10}};
    ENSURE_OK(c2d_chain_new(pts, 3, 0, &chain));
    c2d_cast c;
    memset(&c, 0x5a, sizeof c);
    c2d_cast before = c;
    ENSURE(c2d_static_set_cast(NULL, box, tu_v(1, 0), &c) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_cast(s.level, box, tu_v(1, 0), NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_cast(s.level, box, tu_v(NAN, 0), &c) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_cast(s.level, chain, tu_v(1, 0), &c) == C2D_ERR_NOT_CONVEX);
    ENSURE(c2d_world_cast(s.world, chain, tu_v(1, 0), NULL, &c) == C2D_ERR_NOT_CONVEX);
    ENSURE(c2d_world_cast(s.world, box, tu_v(2e15, 0), NULL, &c) == C2D_ERR_RANGE);
    ENSURE(c2d_world_cast(NULL, box, tu_v(1, 0), NULL, &c) == C2D_ERR_NULL);
    ENSURE(memcmp(&c, &before, sizeof c) == 0);
    c2d_vec2 d = tu_v(7, 7);
    ENSURE(c2d_world_push_out(s.world, chain, NULL, &d) == C2D_ERR_NOT_CONVEX);
    ENSURE(c2d_world_push_out(s.world, NULL, NULL, &d) == C2D_ERR_NULL);
    ENSURE(d.x == 7 && d.y == 7);
    c2d_move_result r;
    memset(&r, 0x5a, sizeof r);
    c2d_move_result rb = r;
    kept k;
    k.n = -7;
    const double bad_dt[4] = {0, -1, NAN, INFINITY};
    for (int i = 0; i < 4; i++) {
        c2d_status want = i < 2 ? C2D_ERR_RANGE : C2D_ERR_NOT_FINITE;
        c2d_motion m = tu_motion(1, 0, 1, 0, 0);
        ENSURE(c2d_static_set_move_timed_report(s.level, box, tu_v(1, 0), bad_dt[i], NULL, &r, keep, &k) == want);
        ENSURE(c2d_world_move_timed_report(s.world, box, tu_v(1, 0), bad_dt[i], NULL, NULL, NULL, NULL, &r, keep, &k) ==
               want);
        ENSURE(c2d_static_set_move_turning_timed_report(s.level, box, &m, bad_dt[i], NULL, &r, NULL, keep, &k) == want);
        ENSURE(c2d_world_move_turning_timed_report(s.world, box, &m, bad_dt[i], NULL, NULL, NULL, NULL, &r, NULL, keep,
                                                   &k) == want);
    }
    /* A displacement over a tiny dt beyond the coordinate range. */
    ENSURE(c2d_static_set_move_timed_report(s.level, box, tu_v(1e6, 0), 1e-10, NULL, &r, keep, &k) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_move_timed_report(s.level, box, tu_v(1, 0), 1, NULL, &r, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(memcmp(&r, &rb, sizeof r) == 0 && k.n == -7);
    c2d_shape_destroy(box);
    c2d_shape_destroy(chain);
    scene_free(&s);
}

/* A crossing is reported when the mover enters a crossed shape, wherever it enters: also at a corner
 * or face it shares with a touching neighbour (a seam of the set, which hides that feature from solid
 * motions only). Found by the shooter's checks: two enemy crates touching corner to face, a bullet
 * entering one exactly where they touch. */
TEST(crossing_a_shape_where_it_touches_a_neighbour_is_reported)
{
    int reported = 0, cases = 0;
    long runs = c2d_test_iterations(400);
    for (int run = 0; run < runs; run++) {
        /* Crate a, and crate b touching it: b's corner on a's top face, or a shared face. */
        double angle = c2d_test_uniform(0.1, 1.4);
        double ax = c2d_test_uniform(-50, 50);
        c2d_shape *sh[2];
        ENSURE_OK(c2d_rect_new(ax, 0, 20, 20, 0, &sh[0]));
        c2d_vec2 corner = tu_v(ax + c2d_test_uniform(-8, 8), -10); /* on a's top face (y down: a's top is y -10) */
        c2d_vec2 centre = tu_add(corner, tu_rot(tu_v(0, -10 * sqrt(2.0)), angle - TU_PI / 4));
        if (run % 2)
            centre = tu_v(ax, -30), angle = 0; /* a shared face */
        ENSURE_OK(c2d_rect_new(centre.x, centre.y, 20, 20, angle, &sh[1]));
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)sh, 2, NULL, &set));
        /* A ball aimed through the touching point, from outside both. */
        c2d_vec2 target = run % 2 ? tu_v(ax + c2d_test_uniform(-9, 9), -10) : corner;
        double dir = c2d_test_uniform(-1, 1) + (run % 4 < 2 ? 0 : TU_PI);
        c2d_vec2 u = tu_v(cos(dir), sin(dir));
        c2d_ball ball = {tu_sub(target, tu_scale(u, 40)), tu_scale(u, 80), 0.5};
        /* It must enter both shapes' insides past the point, or it is no test: find which it ends in. */
        int inside[2] = {0, 0};
        c2d_shape *end;
        ENSURE_OK(c2d_circle_new(ball.position.x + ball.velocity.x, ball.position.y + ball.velocity.y, 0.5, &end));
        c2d_shape *start;
        ENSURE_OK(c2d_circle_new(ball.position.x, ball.position.y, 0.5, &start));
        int start_out = 1;
        for (int k = 0; k < 2; k++) {
            int o;
            ENSURE_OK(c2d_overlap(start, sh[k], &o));
            start_out &= !o;
        }
        c2d_move_options opt = c2d_move_options_default();
        opt.response = C2D_RESPONSE_CROSS;
        c2d_move_result r;
        kept kc;
        ENSURE_OK(c2d_static_set_step_ball_report(set, &ball, 1, &opt, &r, keep, &kc));
        /* Every shape the straight path enters (its capsule overlaps the shape) is reported. */
        c2d_shape *path;
        ENSURE_OK(c2d_capsule_new(tu_sub(target, tu_scale(u, 40)), tu_add(target, tu_scale(u, 40)), 0.5 * (1 - 1e-9),
                                  &path));
        for (int k = 0; k < 2 && start_out; k++) {
            int o, seen = 0;
            ENSURE_OK(c2d_overlap(path, sh[k], &o));
            for (int j = 0; j < kc.n && j < 64; j++)
                seen |= kc.r[j].contact.index == k;
            if (o) {
                cases++;
                ENSURE_MSG(seen, "run %d: the ball's path enters shape %d, not reported (%d contacts)", run, k, kc.n);
                reported++;
            }
            inside[k] = o;
        }
        (void)inside;
        c2d_shape_destroy(path);
        c2d_shape_destroy(start);
        c2d_shape_destroy(end);
        c2d_static_set_destroy(set);
        c2d_shape_destroy(sh[0]);
        c2d_shape_destroy(sh[1]);
    }
    ENSURE_MSG(cases > runs / 2, "only %d crossings to check", cases);
}
