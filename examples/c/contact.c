/* contact.c - the first thing to try with collide2d: make shapes, ask whether they overlap, and read
 * the contact (normal from A to B, depth, points) that would push them apart. */
#include <collide2d.h>

#include <stdio.h>

static void report(const char *what, const c2d_shape *a, const c2d_shape *b)
{
    c2d_contact c;
    c2d_distance_result d;
    if (c2d_collide(a, b, &c) != C2D_OK || c2d_distance(a, b, &d) != C2D_OK)
        return;
    if (c.count == 0) {
        printf("%-34s apart, distance %.4f\n", what, d.distance);
        return;
    }
    printf("%-34s overlap: normal (%+.4f, %+.4f) depth %.4f, %d point(s):", what, c.normal.x, c.normal.y,
           c.depth, c.count);
    for (int i = 0; i < c.count; i++)
        printf(" (%.4f, %.4f)", c.points[i].x, c.points[i].y);
    printf("\n");
}

int main(void)
{
    const double deg = 3.14159265358979323846 / 180.0;
    c2d_shape *ball = NULL, *box = NULL, *tilted = NULL, *tri = NULL, *pill = NULL;
    const c2d_vec2 tri_pts[] = {{5, 0}, {8, 0}, {6.5, 3}};
    c2d_status st;

    printf("collide2d %s\n", c2d_version_string());
    if ((st = c2d_circle_new(0, 0, 1, &ball)) || (st = c2d_rect_new(1.5, 0.5, 2, 2, 0, &box)) ||
        (st = c2d_rect_new(3, 3, 2, 1, 30 * deg, &tilted)) || (st = c2d_polygon_new(tri_pts, 3, &tri)) ||
        (st = c2d_capsule_new((c2d_vec2){4, 2.5}, (c2d_vec2){9, 2.5}, 0.75, &pill))) {
        fprintf(stderr, "could not create shapes: %s\n", c2d_status_string(st));
        return 1;
    }
    report("circle vs box", ball, box);
    report("box vs tilted box", box, tilted);
    report("triangle vs capsule", tri, pill);
    report("circle vs triangle", ball, tri);

    /* A bad argument is a status, never a crash. */
    c2d_shape *bad = NULL;
    st = c2d_circle_new(0, 0, -1, &bad);
    printf("circle with radius -1: %s\n", c2d_status_string(st));

    /* Push the box out of the circle along the contact and check they now just touch. */
    c2d_contact c;
    c2d_collide(ball, box, &c);
    c2d_shape_move(box, (c2d_vec2){c.normal.x * c.depth, c.normal.y * c.depth});
    report("circle vs box after push-out", ball, box);

    c2d_shape_destroy(ball);
    c2d_shape_destroy(box);
    c2d_shape_destroy(tilted);
    c2d_shape_destroy(tri);
    c2d_shape_destroy(pill);
    return 0;
}
