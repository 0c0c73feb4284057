/* test_bookkeeping.c - what a game no longer keeps by hand beside a static set: a user value per shape,
 * carried by the full contact records of every move and ball step as a world entry's is (and nothing
 * else changed by it), and the set's own copy of each shape, read-only, to draw the level from: its
 * kind, pose and vertices where the set placed it, following it as the set re-places it. Bad input
 * answers a status and changes nothing. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* Collects the records a _report call hands over. */
typedef struct kept {
    c2d_contact_record rec[64];
    int n;
} kept;

static c2d_status keep(void *ctx, const c2d_contact_record *records, int count)
{
    kept *k = (kept *)ctx;
    k->n = count;
    for (int i = 0; i < count && i < 64; i++)
        k->rec[i] = records[i];
    return C2D_OK;
}

/* A level of five shapes: a floor of two bricks, a wall, a bumper and an L-shaped concave ledge. */
enum { FLOOR1, FLOOR2, WALL, BUMPER, LEDGE, LEVEL };

static c2d_status make_level(c2d_shape **s)
{
    static const c2d_vec2 ell[6] = {{20, 4}, {26, 4}, {26, 5}, {21, 5}, {21, 8}, {20, 8}};
    c2d_status st;
    if ((st = c2d_rect_new(5, -0.5, 10, 1, 0, &s[FLOOR1])) != C2D_OK ||
        (st = c2d_rect_new(15, -0.5, 10, 1, 0, &s[FLOOR2])) != C2D_OK ||
        (st = c2d_rect_new(-0.5, 10, 1, 20, 0, &s[WALL])) != C2D_OK ||
        (st = c2d_circle_new(10, 10, 1.5, &s[BUMPER])) != C2D_OK)
        return st;
    return c2d_concave_new(ell, 6, NULL, NULL, 0, &s[LEDGE]);
}

static void free_level(c2d_shape **s)
{
    for (int i = 0; i < LEVEL; i++)
        c2d_shape_destroy(s[i]);
}

TEST(bookkeeping_set_values_default_to_zero_and_read_back)
{
    c2d_shape *s[LEVEL];
    c2d_static_set *set;
    ENSURE_OK(make_level(s));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, LEVEL, NULL, &set));
    for (int i = 0; i < LEVEL; i++) {
        uintptr_t u = 99;
        ENSURE_OK(c2d_static_set_get_user(set, i, &u));
        ENSURE(u == 0);
    }
    ENSURE_OK(c2d_static_set_set_user(set, LEDGE, 7));
    ENSURE_OK(c2d_static_set_set_user(set, BUMPER, (uintptr_t)&s[BUMPER])); /* a pointer is a value too */
    uintptr_t u;
    ENSURE_OK(c2d_static_set_get_user(set, LEDGE, &u));
    ENSURE(u == 7);
    ENSURE_OK(c2d_static_set_get_user(set, BUMPER, &u));
    ENSURE(u == (uintptr_t)&s[BUMPER]);
    ENSURE_OK(c2d_static_set_get_user(set, WALL, &u));
    ENSURE(u == 0);
    ENSURE_OK(c2d_static_set_set_user(set, LEDGE, 0));
    ENSURE_OK(c2d_static_set_get_user(set, LEDGE, &u));
    ENSURE(u == 0);
    /* Zero on a set that never had a value is the default already. */
    c2d_static_set *empty;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, LEVEL, NULL, &empty));
    ENSURE_OK(c2d_static_set_set_user(empty, 2, 0));
    ENSURE_OK(c2d_static_set_get_user(empty, 2, &u));
    ENSURE(u == 0);
    c2d_static_set_destroy(empty);
    c2d_static_set_destroy(set);
    free_level(s);
}

TEST(bookkeeping_set_values_bad_input_changes_nothing)
{
    c2d_shape *s[LEVEL];
    c2d_static_set *set;
    ENSURE_OK(make_level(s));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, LEVEL, NULL, &set));
    ENSURE_OK(c2d_static_set_set_user(set, 1, 11));
    uintptr_t u = 5;
    ENSURE(c2d_static_set_set_user(NULL, 0, 1) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_set_user(set, -1, 1) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_set_user(set, LEVEL, 1) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_get_user(NULL, 0, &u) == C2D_ERR_NULL && u == 5);
    ENSURE(c2d_static_set_get_user(set, 0, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_get_user(set, LEVEL, &u) == C2D_ERR_RANGE && u == 5);
    ENSURE(c2d_static_set_get_user(set, -1, &u) == C2D_ERR_RANGE && u == 5);
    for (int i = 0; i < LEVEL; i++) {
        ENSURE_OK(c2d_static_set_get_user(set, i, &u));
        ENSURE(u == (i == 1 ? 11u : 0u));
    }
    int on = 5;
    ENSURE(c2d_static_set_get_enabled(NULL, 0, &on) == C2D_ERR_NULL && on == 5);
    ENSURE(c2d_static_set_get_enabled(set, 0, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_get_enabled(set, LEVEL, &on) == C2D_ERR_RANGE && on == 5);
    const c2d_shape *view = NULL;
    ENSURE(c2d_static_set_get_shape(NULL, 0, &view) == C2D_ERR_NULL && view == NULL);
    ENSURE(c2d_static_set_get_shape(set, 0, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_get_shape(set, -1, &view) == C2D_ERR_RANGE && view == NULL);
    ENSURE(c2d_static_set_get_shape(set, LEVEL, &view) == C2D_ERR_RANGE && view == NULL);
    c2d_static_set_destroy(set);
    free_level(s);
}

TEST(bookkeeping_records_carry_the_set_values_of_the_shapes_met)
{
    /* A ball bounces between the floor and the bumper above it; a box slides along the floor into the wall;
     * a box turning into the ledge: every record's user is the value of the shape it names, through
     * the _records and the _report calls alike, and a shape with no value reports 0. */
    c2d_shape *s[LEVEL];
    c2d_static_set *set;
    ENSURE_OK(make_level(s));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, LEVEL, NULL, &set));
    static const uintptr_t value[LEVEL] = {101, 102, 0, 104, 105};
    for (int i = 0; i < LEVEL; i++)
        ENSURE_OK(c2d_static_set_set_user(set, i, value[i]));

    c2d_ball ball;
    ball.position = V(9.9, 5);
    ball.velocity = V(0, -20);
    ball.radius = 0.5;
    c2d_move_result res;
    c2d_contact_record rec[16];
    ENSURE_OK(c2d_static_set_step_ball_records(set, &ball, 1, NULL, &res, rec, 16));
    ENSURE_MSG(res.count >= 3, "%d contacts", res.count);
    ENSURE(rec[0].contact.index == FLOOR1 && rec[0].user == 101 && rec[0].id == 0);
    ENSURE(rec[1].contact.index == BUMPER && rec[1].user == 104 && rec[1].id == 0);
    for (int k = 0; k < res.count && k < 16; k++)
        ENSURE(rec[k].user == value[rec[k].contact.index]);

    c2d_shape *box;
    ENSURE_OK(c2d_rect_new(5, 0.5, 1, 1, 0, &box));
    c2d_move_options o = c2d_move_options_default();
    kept k1;
    memset(&k1, 0, sizeof k1);
    ENSURE_OK(c2d_static_set_move_report(set, box, V(-10, -1), &o, &res, keep, &k1));
    ENSURE(k1.n == res.count && k1.n >= 2);
    int wall = 0;
    for (int k = 0; k < k1.n; k++) {
        ENSURE(k1.rec[k].user == value[k1.rec[k].contact.index]);
        wall += k1.rec[k].contact.index == WALL;
    }
    ENSURE(wall == 1); /* the wall has no value: 0 */

    /* A crate turning into the foot of the ledge. */
    c2d_shape *crate;
    ENSURE_OK(c2d_rect_new(18.8, 6, 2, 2, 0, &crate));
    c2d_motion m = tu_motion(0, 0, 1.5, 0, 0);
    double turned;
    kept k2;
    memset(&k2, 0, sizeof k2);
    ENSURE_OK(c2d_static_set_move_turning_report(set, crate, &m, &o, &res, &turned, keep, &k2));
    ENSURE_MSG(k2.n >= 1 && k2.rec[0].contact.index == LEDGE && k2.rec[0].user == 105, "%d records, first %d",
               k2.n, k2.n > 0 ? k2.rec[0].contact.index : -1);
    c2d_contact_record few[1];
    ENSURE_OK(c2d_static_set_move_records(set, box, V(-10, -1), &o, &res, few, 1));
    ENSURE(memcmp(&few[0], &k1.rec[0], sizeof few[0]) == 0);
    c2d_shape_destroy(crate);
    c2d_shape_destroy(box);
    c2d_static_set_destroy(set);
    free_level(s);
}

TEST(bookkeeping_values_change_no_motion)
{
    /* Random balls and boxes through a set with values and the same set without: the same results and
     * the same records bit for bit, but for user, which is the value of the shape each record names. */
    c2d_shape *b[30];
    for (int i = 0; i < 30; i++) {
        double turn = c2d_test_uniform(-1, 1), h = c2d_test_uniform(0.5, 2), w = c2d_test_uniform(0.5, 2);
        double x = (i % 6) * 3.0 + c2d_test_uniform(-0.5, 0.5);
        ENSURE_OK(c2d_rect_new(x, (i / 6) * 3.0, w, h, turn, &b[i]));
    }
    c2d_static_set *bare, *valued;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)b, 30, NULL, &bare));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)b, 30, NULL, &valued));
    for (int i = 0; i < 30; i++)
        ENSURE_OK(c2d_static_set_set_user(valued, i, (uintptr_t)(1000 + 7 * i)));
    long n = c2d_test_iterations(400);
    for (long k = 0; k < n; k++) {
        c2d_ball b1, b2;
        b1.position = tu_random_vec(-3, 18, -3, 15);
        b1.velocity = tu_random_vec(-40, 40, -40, 40);
        b1.radius = c2d_test_uniform(0.05, 0.6);
        b2 = b1;
        c2d_move_result r1, r2;
        c2d_contact_record x1[64], x2[64];
        ENSURE_OK(c2d_static_set_step_ball_records(bare, &b1, 1, NULL, &r1, x1, 64));
        ENSURE_OK(c2d_static_set_step_ball_records(valued, &b2, 1, NULL, &r2, x2, 64));
        ENSURE(memcmp(&b1, &b2, sizeof b1) == 0 && memcmp(&r1, &r2, sizeof r1) == 0);
        for (int i = 0; i < r1.count && i < 64; i++) {
            ENSURE(x1[i].user == 0 && x2[i].user == (uintptr_t)(1000 + 7 * x2[i].contact.index));
            x2[i].user = 0;
            ENSURE(memcmp(&x1[i], &x2[i], sizeof x1[i]) == 0);
        }
        c2d_shape *box;
        double turn = c2d_test_uniform(-1, 1), h = c2d_test_uniform(0.1, 1), w = c2d_test_uniform(0.1, 1);
        double y = c2d_test_uniform(-3, 15), x = c2d_test_uniform(-3, 18);
        ENSURE_OK(c2d_rect_new(x, y, w, h, turn, &box));
        c2d_vec2 d = tu_random_vec(-20, 20, -20, 20);
        ENSURE_OK(c2d_static_set_move_records(bare, box, d, NULL, &r1, x1, 64));
        ENSURE_OK(c2d_static_set_move_records(valued, box, d, NULL, &r2, x2, 64));
        c2d_shape_destroy(box);
        ENSURE(memcmp(&r1, &r2, sizeof r1) == 0);
        for (int i = 0; i < r1.count && i < 64; i++) {
            ENSURE(x2[i].user == (uintptr_t)(1000 + 7 * x2[i].contact.index));
            x2[i].user = 0;
            ENSURE(memcmp(&x1[i], &x2[i], sizeof x1[i]) == 0);
        }
    }
    c2d_static_set_destroy(bare);
    c2d_static_set_destroy(valued);
    for (int i = 0; i < 30; i++)
        c2d_shape_destroy(b[i]);
}

/* The vertices of a shape (part < 0) or of one of its parts, into out; the count. */
static int vertices_of(const c2d_shape *s, int part, c2d_vec2 *out, int cap)
{
    int n = -1;
    c2d_status st = part < 0 ? c2d_shape_get_vertices(s, out, cap, &n) : c2d_shape_get_part_vertices(s, part, out, cap, &n);
    return st == C2D_OK ? n : -1;
}

/* Whether two shapes read the same: kind, pose, radius, vertices and the vertices of every part. */
static int reads_the_same(const c2d_shape *a, const c2d_shape *b)
{
    c2d_vec2 pa, pb, va[64], vb[64];
    double aa, ab, ra, rb;
    int na, nb;
    if (c2d_shape_get_type(a) != c2d_shape_get_type(b))
        return 0;
    if (c2d_shape_get_position(a, &pa) || c2d_shape_get_position(b, &pb) || c2d_shape_get_angle(a, &aa) ||
        c2d_shape_get_angle(b, &ab) || c2d_shape_get_radius(a, &ra) || c2d_shape_get_radius(b, &rb))
        return 0;
    if (pa.x != pb.x || pa.y != pb.y || aa != ab || ra != rb)
        return 0;
    if (c2d_shape_get_part_count(a, &na) || c2d_shape_get_part_count(b, &nb) || na != nb)
        return 0;
    for (int part = -1; part < na; part++) {
        int ca = vertices_of(a, part, va, 64), cb = vertices_of(b, part, vb, 64);
        if (ca < 0 || ca != cb || memcmp(va, vb, (size_t)ca * sizeof va[0]) != 0)
            return 0;
    }
    return 1;
}

TEST(bookkeeping_a_sets_shapes_read_as_the_shapes_handed_in)
{
    /* Every kind, a chain and a concave polygon among them: the set's copy reads as the shape it was
     * made from (kind, pose, radius, vertices, parts), and is the same handle every time. */
    c2d_shape *s[LEVEL + 4];
    ENSURE_OK(make_level(s));
    static const c2d_vec2 tri[3] = {{30, 0}, {34, 0}, {31, 3}}, hills[4] = {{40, 0}, {44, 2}, {48, 1}, {52, 3}};
    ENSURE_OK(c2d_polygon_new(tri, 3, &s[LEVEL]));
    ENSURE_OK(c2d_capsule_new(V(0, 30), V(4, 31), 0.5, &s[LEVEL + 1]));
    ENSURE_OK(c2d_segment_new(V(6, 30), V(9, 33), &s[LEVEL + 2]));
    ENSURE_OK(c2d_chain_new(hills, 4, C2D_CHAIN_ONE_SIDED, &s[LEVEL + 3]));
    ENSURE_OK(c2d_shape_set_angle(s[FLOOR2], 0.25));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, LEVEL + 4, NULL, &set));
    for (int i = 0; i < LEVEL + 4; i++) {
        const c2d_shape *view = NULL, *again = NULL;
        ENSURE_OK(c2d_static_set_get_shape(set, i, &view));
        ENSURE_OK(c2d_static_set_get_shape(set, i, &again));
        ENSURE(view != NULL && view == again && view != s[i]);
        ENSURE_MSG(reads_the_same(view, s[i]), "shape %d", i);
        int on = 0;
        ENSURE_OK(c2d_static_set_get_enabled(set, i, &on));
        ENSURE(on == 1);
    }
    /* The set's copy is its own: changing the caller's shape does not change it. */
    const c2d_shape *wall;
    ENSURE_OK(c2d_static_set_get_shape(set, WALL, &wall));
    ENSURE_OK(c2d_shape_move(s[WALL], V(5, 0)));
    ENSURE(!reads_the_same(wall, s[WALL]));
    c2d_vec2 p;
    ENSURE_OK(c2d_shape_get_position(wall, &p));
    ENSURE(p.x == -0.5 && p.y == 10);
    c2d_static_set_destroy(set);
    for (int i = 0; i < LEVEL + 4; i++)
        c2d_shape_destroy(s[i]);
}

TEST(bookkeeping_a_sets_shape_follows_it_where_the_set_places_it)
{
    /* Re-placed by set_transform and by advance, and disabled: the same handle reads the new pose, its
     * vertices are where the set's queries find the shape, and get_enabled says whether to draw it. */
    c2d_shape *s[LEVEL];
    ENSURE_OK(make_level(s));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, LEVEL, NULL, &set));
    const c2d_shape *floor2, *ledge;
    ENSURE_OK(c2d_static_set_get_shape(set, FLOOR2, &floor2));
    ENSURE_OK(c2d_static_set_get_shape(set, LEDGE, &ledge));
    ENSURE_OK(c2d_static_set_set_transform(set, FLOOR2, V(15, -3.5), 0.5));
    c2d_vec2 p, q;
    double a;
    ENSURE_OK(c2d_shape_get_position(floor2, &p));
    ENSURE_OK(c2d_shape_get_angle(floor2, &a));
    ENSURE(p.x == 15 && p.y == -3.5 && a == 0.5);
    c2d_shape *moved;
    ENSURE_OK(c2d_rect_new(15, -3.5, 10, 1, 0.5, &moved));
    ENSURE(reads_the_same(floor2, moved));
    c2d_shape_destroy(moved);
    /* The concave ledge turning about its corner (20, 4) for a quarter of a second. */
    ENSURE_OK(c2d_shape_get_position(ledge, &p));
    c2d_motion m = tu_motion(2, 0, 1, 20 - p.x, 4 - p.y);
    ENSURE_OK(c2d_static_set_set_motion(set, LEDGE, &m));
    ENSURE_OK(c2d_static_set_advance(set, 0.25));
    c2d_vec2 tq;
    double ta;
    ENSURE_OK(c2d_static_set_get_transform(set, LEDGE, &tq, &ta));
    ENSURE_OK(c2d_shape_get_position(ledge, &q));
    ENSURE_OK(c2d_shape_get_angle(ledge, &a));
    ENSURE(q.x == tq.x && q.y == tq.y && a == ta && a == 0.25);
    c2d_vec2 v[8];
    int nv = vertices_of(ledge, -1, v, 8), corner = -1;
    ENSURE(nv == 6);
    for (int k = 0; k < nv; k++)
        if (fabs(v[k].x - 20.5) <= 1e-12 && fabs(v[k].y - 4) <= 1e-12)
            corner = k; /* the corner it turns about went 0.5 along x */
    ENSURE(corner >= 0);
    /* Standing still there, the set finds it where its shape says: a small ball rising under that
     * corner (the lowest point around it) meets it 0.1 below. */
    ENSURE_OK(c2d_static_set_set_motion(set, LEDGE, NULL));
    c2d_shape *probe;
    ENSURE_OK(c2d_circle_new(v[corner].x, 3, 0.1, &probe));
    c2d_toi toi;
    int index;
    ENSURE_OK(c2d_static_set_sweep(set, probe, V(0, 2), &toi, &index));
    c2d_shape_destroy(probe);
    ENSURE(toi.state == C2D_TOI_HIT && index == LEDGE);
    ENSURE_NEAR(toi.t, 0.45, 1e-9);
    for (int part = 0; part < 2; part++) {
        c2d_vec2 pv[8];
        ENSURE(vertices_of(ledge, part, pv, 8) >= 3);
    }
    /* Disabled: still readable, and get_enabled says so. */
    int on = 1;
    ENSURE_OK(c2d_static_set_set_enabled(set, LEDGE, 0));
    ENSURE_OK(c2d_static_set_get_enabled(set, LEDGE, &on));
    ENSURE(on == 0);
    ENSURE_OK(c2d_static_set_get_enabled(set, FLOOR1, &on));
    ENSURE(on == 1);
    ENSURE(c2d_shape_get_type(ledge) == C2D_SHAPE_CONCAVE);
    c2d_static_set_destroy(set);
    free_level(s);
}
