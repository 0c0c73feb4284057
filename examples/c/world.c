/* world.c - a world of tiles and crates: ask what is under the mouse, what a laser hits first, which
 * crates overlap, and walk a player along the floor with a bump-style slide that never snags on the
 * joints between tiles. */
#include <collide2d.h>

#include <stdio.h>

#define TILES 40
#define CRATES 12

int main(void)
{
    c2d_world *world;
    c2d_shape *tiles[TILES], *crates[CRATES], *player;
    c2d_world_id id;
    if (c2d_world_new(&world) != C2D_OK)
        return 1;
    /* A floor of 32x32 tiles along y = 400..432 (user values 0..39), and crates stacked loosely on it
     * (user values 100..), two of them turned. */
    for (int i = 0; i < TILES; i++)
        if (c2d_rect_new(16 + 32 * i, 416, 32, 32, 0, &tiles[i]) != C2D_OK ||
            c2d_world_add(world, tiles[i], (uintptr_t)i, &id) != C2D_OK)
            return 1;
    for (int i = 0; i < CRATES; i++)
        if (c2d_rect_new(300 + 26 * i, 380 - (i % 3) * 24, 28, 28, i % 5 == 2 ? 0.4 : 0.0, &crates[i]) != C2D_OK ||
            c2d_world_add(world, crates[i], (uintptr_t)(100 + i), &id) != C2D_OK)
            return 1;

    /* What is under the mouse? */
    c2d_world_hit hits[8];
    int n = 0;
    c2d_vec2 mouse = {330, 352};
    c2d_world_query_point(world, mouse, NULL, hits, 8, &n);
    printf("under the mouse at (%g, %g): %d shape(s)", mouse.x, mouse.y, n);
    for (int i = 0; i < n; i++)
        printf(" %s %lu", hits[i].user >= 100 ? "crate" : "tile", (unsigned long)hits[i].user % 100);
    printf("\n");

    /* A laser from the left wall, pointing right and a little down. */
    c2d_world_ray_hit laser;
    c2d_vec2 from = {0, 300}, dir = {1, 0.2};
    c2d_world_raycast(world, from, dir, 1000, NULL, &laser);
    if (laser.ray.hit)
        printf("laser hits %s %lu at (%.1f, %.1f), normal (%.2f, %.2f)\n", laser.user >= 100 ? "crate" : "tile",
               (unsigned long)laser.user % 100, laser.ray.point.x, laser.ray.point.y, laser.ray.normal.x,
               laser.ray.normal.y);

    /* Which shapes overlap: tiles touch each other along the floor, and some crates lean on others. */
    c2d_world_pair pairs[128];
    c2d_world_pairs(world, pairs, NULL, 128, &n);
    int crate_pairs = 0;
    for (int i = 0; i < n; i++)
        crate_pairs += pairs[i].user_a >= 100 && pairs[i].user_b >= 100;
    printf("%d overlapping pairs, %d of them crate on crate\n", n, crate_pairs);

    /* A player walks right along the floor, pressed down by gravity, for 200 frames of 3 pixels:
     * it slides over 5 tile joints without snagging and stops at the first crate. */
    if (c2d_rect_new(40, 384, 24, 32, 0, &player) != C2D_OK || c2d_world_add(world, player, 999, &id) != C2D_OK)
        return 1;
    c2d_vec2 pos = {40, 384};
    c2d_world_contact met[8];
    for (int frame = 0; frame < 200; frame++) {
        c2d_move_result res;
        c2d_vec2 step = {3, 1};
        if (c2d_world_move(world, player, step, NULL, NULL, NULL, NULL, &res, met, 8) != C2D_OK)
            return 1;
        pos.x += res.displacement.x;
        pos.y += res.displacement.y;
        c2d_shape_set_position(player, pos);
        c2d_world_update(world, id);
        for (int k = 0; k < res.count && k < 8; k++)
            if (met[k].user >= 100 && frame % 50 == 0)
                printf("frame %3d: the player leans on crate %lu\n", frame, (unsigned long)met[k].user % 100);
    }
    printf("the player walked to x = %.2f (floor top y = 400, player bottom %.2f)\n", pos.x, pos.y + 16);

    c2d_world_destroy(world);
    c2d_shape_destroy(player);
    for (int i = 0; i < TILES; i++)
        c2d_shape_destroy(tiles[i]);
    for (int i = 0; i < CRATES; i++)
        c2d_shape_destroy(crates[i]);
    return 0;
}
