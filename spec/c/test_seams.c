/* test_seams.c - which edges of a static set are seams, and what a mover makes of them: the automatic
 * seam tolerance is that of the two shapes that meet, so a shape far away or very large elsewhere in the
 * set neither turns real gaps between small tiles into seams nor loses the seams between them; an
 * explicit tolerance is used as given. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

static int seam(const c2d_static_set *set, int i, int e)
{
    int out = -1;
    return c2d_static_set_is_seam(set, i, e, &out) == C2D_OK ? out : -1;
}

/* Edges of a rectangle, as c2d_shape_get_vertices orders them from the corner (-w/2, -h/2). */
enum { BOTTOM, RIGHT, TOP, LEFT };

/* A floor of tiles 1.9 wide and 5 tall, tops at y = 0, on a base slab from y = -6 to -5: tiles 0 .. 4
 * side by side from x = 0.37 (their joints rounded as placing them rounds), then a real gap 1 wide,
 * tiles 5 .. 6, a real gap 0.01 wide, tiles 7 .. 8. Shape 9 is the slab; shape 10, when far is set, a
 * segment a billion long a billion below. */
#define FLOOR_TILES 9
#define TILE_W 1.9
static const double gap_after[FLOOR_TILES] = {0, 0, 0, 0, 1, 0, 0.01, 0, 0};

static double tile_left(int k)
{
    double x = 0.37;
    for (int i = 0; i < k; i++)
        x += TILE_W + gap_after[i];
    return x;
}

static c2d_status make_floor(int far, const c2d_static_set_options *opt, c2d_shape **s, c2d_static_set **set)
{
    int n = FLOOR_TILES + 1 + (far ? 1 : 0);
    c2d_status st = C2D_OK;
    for (int k = 0; k < FLOOR_TILES && st == C2D_OK; k++)
        st = c2d_rect_new(tile_left(k) + 0.5 * TILE_W, -2.5, TILE_W, 5, 0, &s[k]);
    double end = tile_left(FLOOR_TILES);
    if (st == C2D_OK)
        st = c2d_rect_new(0.5 * (0.37 + end), -5.5, end - 0.37, 1, 0, &s[FLOOR_TILES]);
    if (st == C2D_OK && far)
        st = c2d_segment_new(V(-1e9, -1e9), V(0, -1e9), &s[FLOOR_TILES + 1]);
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)s, n, opt, set);
    return st;
}

static void free_floor(int far, c2d_shape **s, c2d_static_set *set)
{
    c2d_static_set_destroy(set);
    for (int k = 0; k < FLOOR_TILES + 1 + (far ? 1 : 0); k++)
        c2d_shape_destroy(s[k]);
}

TEST(seams_a_segment_a_billion_long_far_away_leaves_the_gaps_between_small_tiles_gaps)
{
    /* The automatic tolerance was 1e-9 of the whole set's magnitude: 1 unit once the segment was in,
     * and (up to a quarter of the tiles' 5-long sides) the 1-wide and 0.01-wide gaps were seams. */
    c2d_shape *s[FLOOR_TILES + 2];
    c2d_static_set *alone, *with;
    ENSURE_OK(make_floor(0, NULL, s, &alone));
    free_floor(0, s, NULL);
    ENSURE_OK(make_floor(1, NULL, s, &with));
    for (int k = 0; k < FLOOR_TILES; k++) {
        int joined_right = k + 1 < FLOOR_TILES && gap_after[k] == 0;
        int joined_left = k > 0 && gap_after[k - 1] == 0;
        ENSURE_MSG(seam(with, k, RIGHT) == joined_right && seam(with, k, LEFT) == joined_left,
                   "tile %d: right %d, left %d beside the segment (expected %d, %d)", k, seam(with, k, RIGHT),
                   seam(with, k, LEFT), joined_right, joined_left);
        for (int e = 0; e < 4; e++)
            ENSURE_MSG(seam(with, k, e) == seam(alone, k, e), "tile %d edge %d: %d beside the segment, %d without", k,
                       e, seam(with, k, e), seam(alone, k, e));
    }
    /* A tiny box inside the narrow gap, moving right, meets the far tile's face at once. */
    c2d_shape *tiny;
    double gap = tile_left(7) - 0.01;
    ENSURE_OK(c2d_rect_new(gap + 0.005, -1, 0.004, 0.004, 0, &tiny));
    c2d_toi t;
    int index;
    ENSURE_OK(c2d_static_set_sweep(with, tiny, V(0.02, 0), &t, &index));
    ENSURE_MSG(t.state == C2D_TOI_HIT && index == 7 && fabs(t.t - 0.15) <= 1e-9 && t.normal.x == 1,
               "sweep in the narrow gap: state %d, index %d, t %.17g, normal (%.17g, %.17g)", (int)t.state, index, t.t,
               t.normal.x, t.normal.y);
    c2d_shape_destroy(tiny);
    c2d_static_set_destroy(alone);
    free_floor(1, s, with);
}

TEST(seams_a_box_walks_over_small_tiles_beside_a_far_segment_and_stops_in_a_real_gap)
{
    /* A box 0.8 wide walks right over the rounded joints of tiles 0 .. 4 without stopping, falls into
     * the real 1-wide gap after tile 4 and stays there against tile 5's face. Before, the segment made
     * that face a seam and the box walked into tile 5. */
    c2d_shape *s[FLOOR_TILES + 2];
    c2d_static_set *set;
    ENSURE_OK(make_floor(1, NULL, s, &set));
    double w = 0.8, h = 1.2, x = tile_left(0) + 0.5 * w + 0.01, y = 0.5 * h + 0.01, fall = 0;
    double gap_l = tile_left(4) + TILE_W, gap_r = tile_left(5);
    int in_gap = 0;
    for (int frame = 0; frame < 200; frame++) {
        fall = fmin(fall + 0.02, 0.05);
        c2d_vec2 d = V(0.1, -fall);
        c2d_shape *box;
        ENSURE_OK(c2d_rect_new(x, y, w, h, 0, &box));
        c2d_move_result r;
        c2d_sweep_contact c[16];
        c2d_status st = c2d_static_set_move(set, box, d, NULL, &r, c, 16);
        c2d_shape_destroy(box);
        ENSURE_OK(st);
        for (int i = 0; i < r.count && i < 16; i++) {
            /* On the tops, nothing but the floor; in the gap, the floor and tile 5's face. */
            int top = c[i].normal.x == 0 && c[i].normal.y == 1;
            int face = c[i].index == 5 && c[i].normal.x == -1 && c[i].normal.y == 0;
            ENSURE_MSG(top || (x + 0.5 * w > gap_l && face),
                       "frame %d: box at (%.17g, %.17g) met shape %d, normal (%.17g, %.17g) at (%.17g, %.17g)", frame,
                       x, y, c[i].index, c[i].normal.x, c[i].normal.y, c[i].point.x, c[i].point.y);
            if (c[i].normal.y == 1)
                fall = 0;
        }
        if (!in_gap && x + 0.5 * w < gap_l)
            ENSURE_MSG(r.displacement.x >= 0.1 - 1e-12, "frame %d: box at (%.17g, %.17g) stopped: moved by %.17g",
                       frame, x, y, r.displacement.x);
        x += r.displacement.x;
        y += r.displacement.y;
        in_gap = in_gap || y < -0.1;
        ENSURE_MSG(x + 0.5 * w <= gap_r + 1e-9 || y - 0.5 * h >= -1e-9,
                   "frame %d: box at (%.17g, %.17g) went into tile 5 (its face at x = %.17g)", frame, x, y, gap_r);
    }
    /* At the bottom of the gap, on the slab, against tile 5. */
    ENSURE_MSG(in_gap && fabs(y - (-5 + 0.5 * h)) <= 1e-9 && fabs(x + 0.5 * w - gap_r) <= 1e-9,
               "the box ended at (%.17g, %.17g), not in the gap's far corner", x, y);
    free_floor(1, s, set);
}

TEST(seams_an_explicit_tolerance_is_used_as_given_beside_a_far_segment)
{
    /* 0.02: the 0.01 gap is a seam, the 1-wide one is not; 1.1: both are (up to a quarter of the 5-long
     * sides). */
    static const double tols[2] = {0.02, 1.1};
    for (int k = 0; k < 2; k++) {
        c2d_shape *s[FLOOR_TILES + 2];
        c2d_static_set *set;
        c2d_static_set_options opt;
        memset(&opt, 0, sizeof opt);
        opt.seam_tolerance = tols[k];
        ENSURE_OK(make_floor(1, &opt, s, &set));
        int narrow = seam(set, 6, RIGHT) + seam(set, 7, LEFT), wide = seam(set, 4, RIGHT) + seam(set, 5, LEFT);
        int joint = seam(set, 0, RIGHT) + seam(set, 1, LEFT);
        free_floor(1, s, set);
        ENSURE_MSG(narrow == 2 && wide == (k ? 2 : 0) && joint == 2,
                   "tolerance %g: narrow gap %d, wide gap %d, joint %d sides seams", tols[k], narrow, wide, joint);
    }
}

/* The seam flags of every edge of shape i: how many edges it has, flags in out (up to cap). */
static int seam_flags(const c2d_static_set *set, int i, int *out, int cap)
{
    int e = 0;
    while (e < cap && c2d_static_set_is_seam(set, i, e, &out[e]) == C2D_OK)
        e++;
    return e;
}

TEST(seams_a_disabled_concave_member_keeps_its_joints_as_seams)
{
    /* A floor with two valleys and a notch, cut into convex parts whose joints meet the top, beside
     * another concave polygon under it. Disabling a member disabled its parts one after another and
     * recomputed the seams of those still enabled each time, so the parts disabled last lost their
     * joints with the first: the member did not keep the flags it had (its joints "always seams"). */
    static const c2d_vec2 floor_ring[9] = {{0, -3}, {4, -3}, {4, -2}, {6, -2}, {6, -3}, {10, -3},
                                           {10, 0}, {7, -0.5}, {5, 0}};
    static const c2d_vec2 floor_rest[2] = {{3, -0.5}, {0, 0}};
    static const c2d_vec2 under[5] = {{0, -3}, {0, -5}, {5, -4}, {10, -5}, {10, -3}};
    c2d_vec2 ring[11];
    memcpy(ring, floor_ring, sizeof floor_ring);
    memcpy(ring + 9, floor_rest, sizeof floor_rest);
    c2d_shape *s[2];
    ENSURE_OK(c2d_concave_new(ring, 11, NULL, NULL, 0, &s[0]));
    ENSURE_OK(c2d_concave_new(under, 5, NULL, NULL, 0, &s[1]));
    /* Each alone: its joints, and nothing else, are seams. */
    int alone[2][64], before[2][64], now[64], n[2];
    for (int i = 0; i < 2; i++) {
        c2d_static_set *one;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&s[i], 1, NULL, &one));
        n[i] = seam_flags(one, 0, alone[i], 64);
        c2d_static_set_destroy(one);
    }
    int joints = 0;
    for (int e = 0; e < n[0]; e++)
        joints += alone[0][e];
    ENSURE_MSG(joints >= 6, "only %d edges of the floor are seams", joints);
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, 2, NULL, &set));
    for (int i = 0; i < 2; i++)
        ENSURE(seam_flags(set, i, before[i], 64) == n[i]);
    for (int i = 0; i < 2; i++) {
        /* Disabled: it keeps its flags, and the other has those it has alone. */
        ENSURE_OK(c2d_static_set_set_enabled(set, i, 0));
        for (int k = 0; k < 2; k++) {
            ENSURE(seam_flags(set, k, now, 64) == n[k]);
            for (int e = 0; e < n[k]; e++)
                ENSURE_MSG(now[e] == (k == i ? before : alone)[k][e],
                           "member %d disabled: edge %d of member %d is %d, not %d", i, e, k, now[e],
                           (k == i ? before : alone)[k][e]);
        }
        /* Enabled again: as before. */
        ENSURE_OK(c2d_static_set_set_enabled(set, i, 1));
        for (int k = 0; k < 2; k++) {
            ENSURE(seam_flags(set, k, now, 64) == n[k]);
            for (int e = 0; e < n[k]; e++)
                ENSURE_MSG(now[e] == before[k][e], "member %d enabled again: edge %d of member %d is %d, was %d", i,
                           e, k, now[e], before[k][e]);
        }
    }
    c2d_static_set_destroy(set);
    c2d_shape_destroy(s[0]);
    c2d_shape_destroy(s[1]);
}
