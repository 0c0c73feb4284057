/* records.h - a growing list of contact records: where a move or ball step puts every contact when its
 * caller wants all of them however many there are (a world move, which maps them back to entries, and
 * the _report calls, which hand them over once). Layer 4, sets.
 *
 * It starts in an array the caller gives (on its stack, usually) and moves to the heap when that is
 * full; running out of memory is remembered rather than reported at once, so the engine that pushes
 * needs no error path of its own: it asks no_memory when it is done. */
#ifndef C2D_RECORDS_H
#define C2D_RECORDS_H

#include "collide2d.h"

#include <stdlib.h>
#include <string.h>

typedef struct c2d_record_list {
    c2d_contact_record *items; /* first, then heap */
    c2d_contact_record *first; /* the caller's array */
    c2d_contact_record *heap;  /* items once grown; freed by c2d_record_list_free */
    int count, capacity;
    int first_capacity;
    int no_memory;             /* a push found no room: the list is incomplete */
} c2d_record_list;

static inline void c2d_record_list_init(c2d_record_list *l, c2d_contact_record *first, int capacity)
{
    l->items = l->first = first;
    l->heap = NULL;
    l->count = 0;
    l->capacity = l->first_capacity = first ? capacity : 0;
    l->no_memory = 0;
}

/* Room for one more record at the end: its slot, or NULL (and no_memory set) when none can be had. */
static inline c2d_contact_record *c2d_record_list_push(c2d_record_list *l)
{
    if (l->count == l->capacity) {
        int cap = l->capacity < 32 ? 64 : 2 * l->capacity;
        if (l->no_memory || l->capacity > (1 << 26)) {
            l->no_memory = 1;
            return NULL;
        }
        c2d_contact_record *grown = (c2d_contact_record *)realloc(l->heap, (size_t)cap * sizeof *grown);
        if (!grown) {
            l->no_memory = 1;
            return NULL;
        }
        if (!l->heap && l->count > 0)
            memcpy(grown, l->first, (size_t)l->count * sizeof *grown);
        l->items = l->heap = grown;
        l->capacity = cap;
    }
    return &l->items[l->count++];
}

/* Empties the list, keeping its storage. */
static inline void c2d_record_list_clear(c2d_record_list *l)
{
    l->count = 0;
    l->no_memory = 0;
}

static inline void c2d_record_list_free(c2d_record_list *l)
{
    free(l->heap);
    l->heap = NULL;
    l->items = l->first;
    l->capacity = l->first_capacity;
    l->count = 0;
}

/* c2d_static_set_move_timed_report, c2d_static_set_move_turning_timed_report and
 * c2d_static_set_step_ball_records with every record pushed to list, which they leave as it is on an
 * error (C2D_ERR_NO_MEMORY when the list could not grow). dt 1 is the untimed call's move, bit for bit.
 * resolve.c. */
c2d_status c2d_static_set_move_list(const c2d_static_set *set, const c2d_shape *mover, c2d_vec2 displacement,
                                    double dt, const c2d_move_options *options, c2d_move_result *result,
                                    c2d_record_list *list);
c2d_status c2d_static_set_move_turning_list(const c2d_static_set *set, const c2d_shape *mover,
                                            const c2d_motion *motion, double dt, const c2d_move_options *options,
                                            c2d_move_result *result, double *turned, c2d_record_list *list);
c2d_status c2d_static_set_step_ball_list(const c2d_static_set *set, c2d_ball *ball, double dt,
                                         const c2d_move_options *options, c2d_move_result *result,
                                         c2d_record_list *list);
/* c2d_static_set_step_ball_list for the ball of c2d_static_set_step_balls that goes on at time t0 of
 * the step (after a contact with another ball) for dt more: the set's moving members stand where their
 * motions took them by t0, and its records' contact.t are fractions of dt from t0. resolve.c. */
c2d_status c2d_static_set_step_ball_list_at(const c2d_static_set *set, c2d_ball *ball, double t0, double dt,
                                            const c2d_move_options *options, c2d_move_result *result,
                                            c2d_record_list *list);

/* The checks c2d_static_set_step_balls makes of its balls, masses, dt and ball options (balls.c), and
 * those a motion makes of its move options for a set of n shapes (resolve.c): C2D_OK or the status the
 * call would return. A world checks them before it asks any callback, so that a refused call changes
 * nothing, not even through them. */
c2d_status c2d_balls_check(const c2d_ball *balls, const double *masses, int n, double dt,
                           const c2d_balls_options *ball_options);
c2d_status c2d_move_options_check(const c2d_move_options *options, int n);

/* The cast answer of a sweep of mover by displacement that met shape index (resolve.c). */
c2d_cast c2d_cast_of_toi(const c2d_shape *mover_shape, c2d_vec2 displacement, const c2d_toi *toi, int index,
                         c2d_world_id id, uintptr_t user);

/* What a world that holds the set as its level (c2d_world_set_level) reads of it (staticset.c). */
/* The caller's indices of the enabled shapes whose members' boxes overlap box (a member in motion with
 * the box it sweeps over horizon), ascending, each once, in a new array *out (free it; NULL when none). */
c2d_status c2d_static_set_reach(const c2d_static_set *set, c2d_aabb box, double horizon, int **out, int *count);
/* Whether a shape of the set may be in motion (it has been given a velocity or a motion). */
int c2d_static_set_in_motion(const c2d_static_set *set);
/* The options that find seams as the set finds them. */
c2d_static_set_options c2d_static_set_seam_options(const c2d_static_set *set);
/* Marks in dst the neighbours marked in src (c2d_static_set_mark_neighbours) between the src shapes
 * shapes[0 .. m) (ascending), which are dst's shapes 0 .. m. */
c2d_status c2d_static_set_copy_marks(c2d_static_set *dst, const c2d_static_set *src, const int *shapes, int m);

#endif /* C2D_RECORDS_H */
