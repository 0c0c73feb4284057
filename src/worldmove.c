/* worldmove.c - moves and ball steps (one ball, or many together) through a world: the entries within
 * reach of the motion become a temporary static set (so seams between touching tiles are found as in
 * any static set), the static set's engine runs the motion, and its contacts are mapped back to entries.
 *
 * Built on the world's box query (c2d_world_query_aabb_all: every entry in one pass, so no callback
 * is asked twice) and the static set's motions into a growing record list (records.h): filters,
 * callbacks and the world's order behave exactly as in every other query. Whatever the mover can
 * touch during the motion lies within the box of its start grown by the length of the path, because
 * no response lengthens the remaining motion (slide and touch shorten it, bounce keeps at most its
 * length, cross keeps it) - unless the mover starts inside and is pushed out first. The push-out can
 * end beyond that box, where entries the scope never held may stand: so after the motion, when its
 * positions may have left the scope (the distance to the end plus twice the path travelled bounds
 * them), the scope grows to cover them and the motion runs again. respond is asked once per entry
 * over all the rounds.
 *
 * Entries in motion (c2d_world_set_motion) join the scope when their motion over the call can bring
 * them into that box (c2d_world_query_reach_all), and move and turn in the scope's set as they do in
 * the world, so the set's engine sweeps them. They can lengthen the mover's motion (a flipper throws a
 * ball, a turning platform carries a box), so when the scope holds one, every place the mover took
 * (its contacts, its end, a last ride on a turning entry) is checked against the scope after each
 * round, and the scope grows and the motion runs again while they leave it. A world with no entry in
 * motion runs as it always did.
 *
 * Many balls stepped together (c2d_world_step_balls) take one scope for all of them, from the box of
 * the balls grown by the longest path one of them takes alone; balls throw one another, so every place
 * a ball took is checked against the scope after each round, as for entries in motion. Layer 7, the
 * world. */
#include "character.h"
#include "records.h"
#include "shape.h"
#include "turnsweep.h"
#include "world.h"

#include <stdlib.h>
#include <string.h>

/* Contact records that fit on the stack; a motion that meets more grows them on the heap. */
#define STACK_RECORDS 64

/* An entry the filter's accept or respond was asked about, and the answer: kept over the rounds of one
 * call (sorted by id between rounds), so that neither callback is asked twice about an entry. */
typedef struct asked {
    c2d_world_id id;
    int answer;
} asked;

typedef struct asked_list {
    asked *items;
    int n, capacity;
} asked_list;

static int compare_asked(const void *x, const void *y)
{
    c2d_world_id a = ((const asked *)x)->id, b = ((const asked *)y)->id;
    return (a > b) - (a < b);
}

static const asked *asked_find(const asked *items, int n, c2d_world_id id)
{
    asked key;
    key.id = id;
    return n > 0 ? (const asked *)bsearch(&key, items, (size_t)n, sizeof key, compare_asked) : NULL;
}

/* Room for `more` answers after the n there are. */
static int asked_reserve(asked_list *l, int more)
{
    if (l->n + more <= l->capacity)
        return 1;
    int cap = l->n + more > 2 * l->capacity ? l->n + more : 2 * l->capacity;
    asked *grown = (asked *)realloc(l->items, (size_t)cap * sizeof *grown);
    if (!grown)
        return 0;
    l->items = grown;
    l->capacity = cap;
    return 1;
}

/* The caller's filter with its accept answers remembered: an entry answered in an earlier round of
 * the call (a push-out that carried the motion beyond the first scope) is not asked again. */
typedef struct filter_memo {
    const c2d_world_filter *user;
    asked_list *memo;
    int known;     /* memo->items[0 .. known) are sorted and searchable */
    int no_memory; /* an answer could not be kept */
} filter_memo;

static int memo_accept(void *ctx, c2d_world_id id, uintptr_t user)
{
    filter_memo *m = (filter_memo *)ctx;
    const asked *before = asked_find(m->memo->items, m->known, id);
    if (before)
        return before->answer;
    int yes = m->user->accept(m->user->ctx, id, user) != 0;
    if (asked_reserve(m->memo, 1)) {
        m->memo->items[m->memo->n].id = id;
        m->memo->items[m->memo->n++].answer = yes;
    } else {
        m->no_memory = 1;
    }
    return yes;
}

/* Sorts the answers added since the last call, so that they can be found. */
static void memo_settle(filter_memo *m)
{
    if (m->memo->n > m->known)
        qsort(m->memo->items, (size_t)m->memo->n, sizeof *m->memo->items, compare_asked);
    m->known = m->memo->n;
}

typedef struct scope {
    c2d_world_hit *hits;      /* the entries considered, in the world's order */
    const c2d_shape **shapes; /* the set's shapes: the level's first (m), then the entries' (n) */
    c2d_response *responses;  /* per shape of the set, or NULL when every shape takes the call's response */
    int n;
    int *members;             /* the level's shapes in the set: members[k] is shape k's index in the level */
    int m;
    int moving;               /* whether a shape considered moves or turns (c2d_world_set_motion) */
    c2d_static_set *set;      /* the scope's own set, or NULL when the motion runs through the level itself */
    const c2d_static_set *level; /* the world's level, or NULL */
    const c2d_static_set *run;   /* the set the motion runs through: set, or the level when no entry is near */
} scope;

static void scope_free(scope *s)
{
    c2d_static_set_destroy(s->set);
    free(s->hits);
    free(s->shapes);
    free(s->responses);
    free(s->members);
}

/* What shape k of the set the motion ran through is: a level shape (id 0, its index in the level and its
 * value there) or an entry (its id and value, and its rank among the entries considered). */
static void scope_member(const scope *s, int k, c2d_world_id *id, uintptr_t *user, int *index)
{
    if (s->run == s->level) {
        *id = 0;
        *index = k;
        c2d_static_set_get_user(s->level, k, user);
    } else if (k < s->m) {
        *id = 0;
        *index = s->members[k];
        c2d_static_set_get_user(s->level, s->members[k], user);
    } else {
        *id = s->hits[k - s->m].id;
        *user = s->hits[k - s->m].user;
        *index = k - s->m;
    }
}

/* Shape k of the set the motion ran through, as it stands. */
static const c2d_shape *scope_shape(const scope *s, int k)
{
    if (s->run == s->level) {
        const c2d_shape *shape = NULL;
        c2d_static_set_get_shape(s->level, k, &shape);
        return shape;
    }
    return s->shapes[k];
}

static c2d_status check_move_options(const c2d_world *w, const c2d_move_options *o)
{
    if (o && o->responses && !w->level)
        return C2D_ERR_RANGE; /* per-shape arrays are for a level's shapes; entries take respond */
    /* Every level shape's response, as the set's own calls check them: near an entry only the shapes
     * within reach join the scope, and its set would read theirs alone, so the call would take or
     * refuse a bad array depending on where the mover goes. */
    int n = 0;
    if (o && o->responses && c2d_static_set_get_count(w->level, &n) == C2D_OK)
        for (int i = 0; i < n; i++)
            if ((int)o->responses[i] < C2D_RESPONSE_NONE || (int)o->responses[i] > C2D_RESPONSE_CROSS)
                return C2D_ERR_RANGE;
    return C2D_OK;
}

/* The world's order: user value, then id. */
static int before(const c2d_world_hit *a, const c2d_world_hit *b)
{
    if (a->user != b->user)
        return a->user < b->user;
    return a->id < b->id;
}

/* Puts the scope's first n entries (with their shapes and responses) back in the world's order after
 * callbacks re-valued some of them. Insertion sort: they are in order but for the re-valued ones. */
static void scope_sort(scope *s, int n)
{
    for (int i = 1; i < n; i++) {
        c2d_world_hit h = s->hits[i];
        const c2d_shape *shape = s->shapes[i];
        c2d_response r = s->responses ? s->responses[i] : C2D_RESPONSE_NONE;
        int j = i;
        for (; j > 0 && before(&h, &s->hits[j - 1]); j--) {
            s->hits[j] = s->hits[j - 1];
            s->shapes[j] = s->shapes[j - 1];
            if (s->responses)
                s->responses[j] = s->responses[j - 1];
        }
        s->hits[j] = h;
        s->shapes[j] = shape;
        if (s->responses)
            s->responses[j] = r;
    }
}

/* Gives the set's shapes from `first` on the one-way directions and motions of their entries (hits[0 ..
 * n)): one-way entries block only from their side, in the set as in the world, and entries in motion
 * move and turn in the set as in the world, so the set's engine sweeps them. */
static c2d_status entry_motions(scope *s, const c2d_world *w, int first)
{
    c2d_status st = C2D_OK;
    for (int k = 0; k < s->n && st == C2D_OK; k++) {
        c2d_vec2 dir;
        st = c2d_world_get_one_way(w, s->hits[k].id, &dir);
        if (st == C2D_OK && (dir.x != 0 || dir.y != 0))
            st = c2d_static_set_set_one_way(s->set, first + k, dir);
    }
    for (int k = 0; k < s->n && st == C2D_OK; k++) {
        c2d_motion m;
        st = c2d_world_get_motion(w, s->hits[k].id, &m);
        if (st == C2D_OK && c2d_motion_moves(&m)) {
            st = c2d_static_set_set_motion(s->set, first + k, &m);
            s->moving = 1;
        }
    }
    return st;
}

/* The scope of a world with a level, its entries found: with no entry near, the motion runs through the
 * level itself (its seams, grid and motions as they are); else the level's shapes that the motion can
 * reach join the entries in the scope's own set, first, with their one-way directions and motions, the
 * level's seam rules and the neighbours marked in it. options->responses, when given, holds one response
 * per level shape; the entries take their respond answers, or the call's response. */
static c2d_status level_scope(scope *s, const c2d_world *w, c2d_aabb reach, double horizon,
                              const c2d_move_options *options, c2d_response dflt)
{
    const c2d_static_set *level = w->level;
    if (s->n == 0) {
        s->run = level;
        s->moving = c2d_static_set_in_motion(level);
        return C2D_OK;
    }
    c2d_status st = c2d_static_set_reach(level, reach, horizon, &s->members, &s->m);
    if (st != C2D_OK)
        return st;
    int m = s->m, n = s->n, total = m + n;
    const c2d_shape **shapes = (const c2d_shape **)malloc((size_t)(total > 0 ? total : 1) * sizeof *shapes);
    if (!shapes)
        return C2D_ERR_NO_MEMORY;
    for (int k = 0; k < m; k++)
        c2d_static_set_get_shape(level, s->members[k], &shapes[k]);
    memcpy(shapes + m, s->shapes, (size_t)n * sizeof *shapes);
    free(s->shapes);
    s->shapes = shapes;
    const c2d_response *per_level = options ? options->responses : NULL;
    /* The call's response where nothing more particular is given: the options', or the call's default. */
    c2d_response call = options && options->response != C2D_RESPONSE_NONE ? options->response : dflt;
    if (s->responses || per_level) {
        c2d_response *r = (c2d_response *)malloc((size_t)(total > 0 ? total : 1) * sizeof *r);
        if (!r)
            return C2D_ERR_NO_MEMORY;
        for (int k = 0; k < m; k++)
            r[k] = per_level ? per_level[s->members[k]] : call;
        for (int k = 0; k < n; k++)
            r[m + k] = s->responses ? s->responses[k] : call;
        free(s->responses);
        s->responses = r;
    }
    c2d_static_set_options o = c2d_static_set_seam_options(level);
    /* The entries join one another as in a world without a level: seams are found automatically. */
    o.no_auto_seams = 0;
    st = c2d_static_set_new(s->shapes, total, &o, &s->set);
    s->run = s->set;
    if (st == C2D_OK)
        st = c2d_static_set_copy_marks(s->set, level, s->members, m);
    for (int k = 0; k < m && st == C2D_OK; k++) {
        c2d_vec2 dir;
        c2d_motion mo;
        int i = s->members[k];
        st = c2d_static_set_get_one_way(level, i, &dir);
        if (st == C2D_OK && (dir.x != 0 || dir.y != 0))
            st = c2d_static_set_set_one_way(s->set, k, dir);
        if (st == C2D_OK)
            st = c2d_static_set_get_motion(level, i, &mo);
        if (st == C2D_OK && c2d_motion_moves(&mo)) {
            st = c2d_static_set_set_motion(s->set, k, &mo);
            s->moving = 1;
        }
    }
    return st == C2D_OK ? entry_motions(s, w, m) : st;
}

/* Finds the entries the motion can reach (box `reach`; an entry in motion when its motion over
 * `horizon` can bring it there), asks respond about each one not in *done (and adds it there), and
 * builds the set, each member with its entry's one-way direction and motion. The filter's accept
 * answers are kept in *accepted. Every entry is found in one query, however many there are, so no
 * callback is asked twice; entries that callbacks remove are left out, and those they re-value keep
 * their new value and place. */
static c2d_status scope_build(scope *s, const c2d_world *w, const c2d_shape *mover, c2d_aabb reach, double horizon,
                              const c2d_world_filter *filter, c2d_world_response_fn respond, void *ctx,
                              const c2d_move_options *options, c2d_response dflt, asked_list *done,
                              asked_list *accepted)
{
    memset(s, 0, sizeof *s);
    if (w->level && !c2d_world_maybe_near(w, reach)) {
        /* No entry near: the motion runs through the level itself, with nothing to gather. */
        s->level = s->run = w->level;
        s->moving = c2d_static_set_in_motion(w->level);
        return C2D_OK;
    }
    int count = 0;
    c2d_world_filter wrapped;
    filter_memo fm;
    if (filter && filter->accept) {
        wrapped = *filter;
        wrapped.accept = memo_accept;
        wrapped.ctx = &fm;
        fm.user = filter;
        fm.memo = accepted;
        fm.known = accepted->n;
        fm.no_memory = 0;
        filter = &wrapped;
    }
    c2d_status st = c2d_world_query_reach_all(w, reach, horizon, filter, &s->hits, &count);
    if (filter == &wrapped)
        memo_settle(&fm);
    if (st == C2D_OK && filter == &wrapped && fm.no_memory)
        st = C2D_ERR_NO_MEMORY;
    if (st != C2D_OK)
        return st;
    s->shapes = (const c2d_shape **)malloc((size_t)(count > 0 ? count : 1) * sizeof *s->shapes);
    if (respond)
        s->responses = (c2d_response *)malloc((size_t)(count > 0 ? count : 1) * sizeof *s->responses);
    if (!s->shapes || (respond && !s->responses))
        return C2D_ERR_NO_MEMORY;
    /* Responses first (the callback may remove entries), then the shapes of the entries still there. */
    if (respond && !asked_reserve(done, count))
        return C2D_ERR_NO_MEMORY;
    int known = done->n;
    for (int k = 0; k < count; k++) {
        if (!respond)
            continue;
        /* An earlier answer may have removed this entry: it is then not asked, and not met. */
        if (c2d_world_get(w, s->hits[k].id, NULL, &s->hits[k].user) != C2D_OK) {
            s->responses[k] = C2D_RESPONSE_NONE;
            continue;
        }
        /* Asked in an earlier round of this call: the same answer, without asking again. */
        const asked *earlier = asked_find(done->items, known, s->hits[k].id);
        if (earlier) {
            s->responses[k] = (c2d_response)earlier->answer;
            continue;
        }
        c2d_response r = respond(ctx, s->hits[k].id, s->hits[k].user);
        if ((int)r < C2D_RESPONSE_NONE || (int)r > C2D_RESPONSE_CROSS)
            return C2D_ERR_RANGE;
        s->responses[k] = r;
        done->items[done->n].id = s->hits[k].id;
        done->items[done->n++].answer = (int)r;
    }
    if (done->n > known)
        qsort(done->items, (size_t)done->n, sizeof *done->items, compare_asked);
    /* The entries still there, with their values as the callbacks left them. */
    int n = 0, revalued = 0;
    for (int k = 0; k < count; k++) {
        c2d_shape *shape = NULL;
        uintptr_t user = 0;
        if (respond && s->responses[k] == C2D_RESPONSE_NONE)
            continue;
        if (c2d_world_get(w, s->hits[k].id, &shape, &user) != C2D_OK || shape == mover)
            continue;
        revalued |= user != s->hits[k].user;
        s->hits[n] = s->hits[k];
        s->hits[n].user = user;
        if (respond)
            s->responses[n] = s->responses[k];
        s->shapes[n++] = shape;
    }
    s->n = n;
    if (revalued)
        scope_sort(s, n);
    s->level = w->level;
    if (w->level)
        return level_scope(s, w, reach, horizon, options, dflt);
    st = c2d_static_set_new(s->shapes, n, NULL, &s->set);
    s->run = s->set;
    return st == C2D_OK ? entry_motions(s, w, 0) : st;
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

/* Runs the static-set records back to entries: records[i].contact.index names a scope entry. Into
 * plain world contacts or into full records, whichever the caller gave; or, for the _report calls,
 * in place (out and full both NULL). */
static void map_contacts(const scope *s, c2d_contact_record *tmp, int written, c2d_world_contact *out,
                         c2d_contact_record *records)
{
    for (int i = 0; i < written; i++) {
        c2d_world_id id;
        uintptr_t user;
        int index;
        scope_member(s, tmp[i].contact.index, &id, &user, &index);
        tmp[i].contact.index = index;
        if (out) {
            out[i].id = id;
            out[i].user = user;
            out[i].contact = tmp[i].contact;
        } else if (records) {
            records[i] = tmp[i];
            records[i].id = id;
            records[i].user = user;
        } else {
            tmp[i].id = id;
            tmp[i].user = user;
        }
    }
}

/* The options for the set: the caller's, with the per-entry responses of the scope. */
static c2d_move_options scope_options(const scope *s, const c2d_move_options *options)
{
    c2d_move_options o = options ? *options : c2d_move_options_default();
    if (s->run != s->level)
        o.responses = s->responses; /* through the level itself, its responses are the caller's */
    return o;
}

/* How far from its start the mover may have been during a motion that ended `end` away after
 * travelling `travelled` (push-out excluded): the push-out is at most the end's distance plus the
 * path, and the path adds itself again. */
static double motion_extent(c2d_vec2 end, double travelled)
{
    /* Not libm's hypot, whose rounding differs between platforms: the scope must grow the same way
     * everywhere. Coordinates within C2D_MAX_COORDINATE keep the squares far from overflow. */
    return v2_len(end) + 2 * travelled;
}

/* The L-infinity length of v: the reach box grows by the same amount on every side. */
static double linf(c2d_vec2 v)
{
    return dmax(fabs(v.x), fabs(v.y));
}

static double l1(c2d_vec2 v)
{
    return fabs(v.x) + fabs(v.y);
}

/* How far, along either axis, from its start the mover may have been during a motion through a scope
 * with entries in motion (which can throw it further than its own motion, or carry it): a straight leg
 * lies between its ends, and every leg begins or ends at a contact, a push-out or the end, so the
 * farthest of those bounds them (records holds every contact of the motion, with where the mover
 * was). The one motion not straight is a ride on a turning entry met last (run.c's carry, after a run of
 * contacts with it): the rest of the time along an arc about its moving pivot, at most (|v| + |w| r)
 * per unit of time, r the mover's distance from the pivot, which L1 lengths bound. start is the
 * mover's position (a ball's centre), end how far it ended from there, T the call's time. */
static double scope_extent(const scope *s, c2d_vec2 start, c2d_vec2 end, const c2d_contact_record *records,
                           int count, double T)
{
    double need = linf(end);
    for (int i = 0; i < count; i++)
        need = dmax(need, linf(v2_sub(records[i].position, start)));
    if (count > 0) {
        const c2d_contact_record *last = &records[count - 1];
        c2d_motion m;
        int k = last->contact.index;
        if (c2d_static_set_get_motion(s->run, k, &m) == C2D_OK && m.angular_velocity != 0 && last->contact.t < 1) {
            c2d_vec2 c = c2d_shape_frame_point(scope_shape(s, k), m.pivot);
            double tau = last->contact.t * T, speed = l1(m.velocity);
            double r = l1(v2_sub(last->position, c)) + speed * T;
            need = dmax(need, linf(v2_sub(last->position, start)) + (speed + fabs(m.angular_velocity) * r) * (T - tau));
        }
    }
    return need;
}

/* Where a world motion's contacts go: the caller's plain contacts or full records (up to capacity),
 * or all of them to report. */
typedef struct motion_out {
    c2d_world_contact *contacts;
    c2d_contact_record *records;
    int capacity;
    c2d_records_fn report;
    void *report_ctx;
} motion_out;

/* A move of mover by displacement (ball NULL), or a step of the ball for dt, through the entries
 * within `reach` of `box`: the set's call on the scope, run again on a larger scope while a push-out
 * may have carried the motion out of it (see the file comment). */
static c2d_status run_motion(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                             const c2d_motion *turn, double lever, double *turned, c2d_ball *ball, double dt,
                             c2d_aabb box, double reach, const c2d_world_filter *filter,
                             c2d_world_response_fn respond, void *respond_ctx, const c2d_move_options *options,
                             c2d_move_result *result, const motion_out *out)
{
    double angle = 0;
    double T = dt; /* the call's time: a ball step's dt, a timed move's, or 1 */
    c2d_vec2 start = ball ? ball->position : mover->pos;
    /* Every contact of the last round is kept (the first says whether the mover was pushed out). */
    c2d_contact_record stack[STACK_RECORDS];
    c2d_record_list tmp;
    c2d_record_list_init(&tmp, stack, STACK_RECORDS);
    asked_list done = {NULL, 0, 0}, accepted = {NULL, 0, 0};
    scope s;
    c2d_move_result res;
    c2d_ball b;
    memset(&b, 0, sizeof b);
    c2d_status st;
    for (int round = 0;; round++) {
        st = scope_build(&s, world, mover, grow(box, reach), T, filter, respond, respond_ctx, options,
                         ball ? C2D_RESPONSE_BOUNCE : C2D_RESPONSE_SLIDE, &done, &accepted);
        if (st != C2D_OK)
            break;
        c2d_move_options o = scope_options(&s, options);
        c2d_vec2 end;
        c2d_record_list_clear(&tmp);
        if (ball) {
            b = *ball;
            st = c2d_static_set_step_ball_list(s.run, &b, dt, &o, &res, &tmp);
            end = v2_sub(b.position, ball->position);
        } else if (turn) {
            st = c2d_static_set_move_turning_list(s.run, mover, turn, dt, &o, &res, &angle, &tmp);
            end = res.displacement;
        } else {
            st = c2d_static_set_move_list(s.run, mover, displacement, dt, &o, &res, &tmp);
            end = res.displacement;
        }
        if (st != C2D_OK)
            break;
        double need;
        if (s.moving) {
            /* Entries in motion may have thrown or carried the mover beyond the scope: grow it unless
             * every place the mover took lies within it (give or take a hair of rounding, far inside
             * the touching tolerance, so that a ball flying straight past a flipper runs once). */
            need = scope_extent(&s, start, end, tmp.items, tmp.count, T) + 2 * lever;
            if (!(need > reach + 1e-12 * (1 + reach + linf(start))) || reach >= 2 * C2D_MAX_COORDINATE)
                break;
        } else {
            if (res.count == 0 || !tmp.items[0].contact.pushed_out)
                break;
            /* Pushed out first: grow the scope (at least doubling, so the rounds are few) unless it
             * covers the motion already, or the whole coordinate range. */
            need = motion_extent(end, res.travelled) + 2 * lever;
            if (!(need > reach) || reach >= 2 * C2D_MAX_COORDINATE)
                break;
        }
        reach = fmin(fmax(need, 2 * reach), 2 * C2D_MAX_COORDINATE);
        scope_free(&s);
    }
    if (st == C2D_OK) {
        if (out->report) {
            map_contacts(&s, tmp.items, tmp.count, NULL, NULL);
            st = out->report(out->report_ctx, tmp.items, tmp.count);
        } else {
            map_contacts(&s, tmp.items, res.count < out->capacity ? res.count : out->capacity, out->contacts,
                         out->records);
        }
    }
    if (st == C2D_OK) {
        if (ball)
            *ball = b;
        if (result)
            *result = res;
        if (turned)
            *turned = angle;
    }
    c2d_record_list_free(&tmp);
    free(done.items);
    free(accepted.items);
    scope_free(&s);
    return st;
}

/* The caller's array of capacity contacts or records, when it is usable: C2D_OK, or the error. */
static c2d_status check_out(const motion_out *out)
{
    if (out->report)
        return C2D_OK;
    if (out->capacity > 0 && !out->contacts && !out->records)
        return C2D_ERR_NULL;
    return out->capacity < 0 ? C2D_ERR_RANGE : C2D_OK;
}

static c2d_status world_move(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement, double dt,
                             const c2d_motion *turn, double *turned, const c2d_world_filter *filter,
                             c2d_world_response_fn respond, void *respond_ctx, const c2d_move_options *options,
                             c2d_move_result *result, const motion_out *out)
{
    if (!world || !mover || !result)
        return C2D_ERR_NULL;
    c2d_status st = check_out(out);
    if (st != C2D_OK)
        return st;
    /* Refused before any callback runs: a rejected call changes nothing, not even through them. */
    if (c2d_is_compound(mover))
        return C2D_ERR_NOT_CONVEX;
    st = c2d_check_vec(displacement);
    if (st == C2D_OK)
        st = c2d_check_number(dt);
    if (st == C2D_OK && !(dt > 0))
        st = C2D_ERR_RANGE;
    if (st == C2D_OK)
        st = check_move_options(world, options);
    if (st != C2D_OK)
        return st;
    c2d_aabb box = c2d_shape_aabb(mover);
    double lever = 0;
    if (turn) {
        /* A mover that turns: the scope holds every place it can turn to, the disc about its pivot
         * through the farthest corner of its box; its position is within that radius (the lever) of
         * the pivot, so a place the position reaches leaves the pivot at most twice the lever further. */
        c2d_rigid r;
        c2d_motion whole = *turn; /* over the whole move: exactly the motion for dt 1 */
        whole.velocity = v2(whole.velocity.x * dt, whole.velocity.y * dt);
        whole.angular_velocity *= dt;
        if ((st = c2d_rigid_of_motion(mover, &whole, &r)) != C2D_OK)
            return st;
        for (int k = 0; k < 4 && r.w != 0; k++) {
            c2d_vec2 q = v2(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y);
            lever = dmax(lever, v2_len(v2_sub(q, r.c)));
        }
        if (!(linf(r.c) + lever <= C2D_MAX_COORDINATE))
            return C2D_ERR_RANGE;
        if (r.w != 0) { /* without a turn, the scope of a plain move */
            box.min = v2(r.c.x - lever, r.c.y - lever);
            box.max = v2(r.c.x + lever, r.c.y + lever);
        }
    }
    return run_motion(world, mover, displacement, turn, lever, turned, NULL, dt, box,
                      fabs(displacement.x) + fabs(displacement.y), filter, respond, respond_ctx, options, result,
                      out);
}

c2d_status c2d_world_move(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                          const c2d_world_filter *filter, c2d_world_response_fn respond, void *respond_ctx,
                          const c2d_move_options *options, c2d_move_result *result, c2d_world_contact *contacts,
                          int capacity)
{
    motion_out out = {contacts, NULL, capacity, NULL, NULL};
    return world_move(world, mover, displacement, 1.0, NULL, NULL, filter, respond, respond_ctx, options, result, &out);
}

c2d_status c2d_world_move_records(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                                  const c2d_world_filter *filter, c2d_world_response_fn respond, void *respond_ctx,
                                  const c2d_move_options *options, c2d_move_result *result,
                                  c2d_contact_record *records, int capacity)
{
    motion_out out = {NULL, records, capacity, NULL, NULL};
    return world_move(world, mover, displacement, 1.0, NULL, NULL, filter, respond, respond_ctx, options, result, &out);
}

c2d_status c2d_world_move_report(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                                 const c2d_world_filter *filter, c2d_world_response_fn respond, void *respond_ctx,
                                 const c2d_move_options *options, c2d_move_result *result, c2d_records_fn report,
                                 void *report_ctx)
{
    if (!report)
        return C2D_ERR_NULL;
    motion_out out = {NULL, NULL, 0, report, report_ctx};
    return world_move(world, mover, displacement, 1.0, NULL, NULL, filter, respond, respond_ctx, options, result, &out);
}

c2d_status c2d_world_move_turning(const c2d_world *world, const c2d_shape *mover, const c2d_motion *motion,
                                  const c2d_world_filter *filter, c2d_world_response_fn respond, void *respond_ctx,
                                  const c2d_move_options *options, c2d_move_result *result, double *turned,
                                  c2d_world_contact *contacts, int capacity)
{
    if (!motion)
        return C2D_ERR_NULL;
    motion_out out = {contacts, NULL, capacity, NULL, NULL};
    return world_move(world, mover, motion->velocity, 1.0, motion, turned, filter, respond, respond_ctx, options, result,
                      &out);
}

c2d_status c2d_world_move_turning_report(const c2d_world *world, const c2d_shape *mover, const c2d_motion *motion,
                                         const c2d_world_filter *filter, c2d_world_response_fn respond,
                                         void *respond_ctx, const c2d_move_options *options,
                                         c2d_move_result *result, double *turned, c2d_records_fn report,
                                         void *report_ctx)
{
    if (!motion || !report)
        return C2D_ERR_NULL;
    motion_out out = {NULL, NULL, 0, report, report_ctx};
    return world_move(world, mover, motion->velocity, 1.0, motion, turned, filter, respond, respond_ctx, options, result,
                      &out);
}

static c2d_status world_step_ball(const c2d_world *world, c2d_ball *ball, double dt, const c2d_world_filter *filter,
                                  c2d_world_response_fn respond, void *respond_ctx, const c2d_move_options *options,
                                  c2d_move_result *result, const motion_out *out)
{
    if (!world || !ball)
        return C2D_ERR_NULL;
    c2d_status st = check_out(out);
    if (st == C2D_OK)
        st = c2d_check_vec(ball->position);
    if (st == C2D_OK)
        st = c2d_check_vec(ball->velocity);
    if (st == C2D_OK)
        st = c2d_check_number(ball->radius);
    if (st == C2D_OK)
        st = c2d_check_number(dt);
    if (st == C2D_OK)
        st = check_move_options(world, options);
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
    return run_motion(world, NULL, v2(0, 0), NULL, 0, NULL, ball, dt, box, path, filter, respond, respond_ctx,
                      options, result, out);
}

c2d_status c2d_world_step_ball(const c2d_world *world, c2d_ball *ball, double dt, const c2d_world_filter *filter,
                               c2d_world_response_fn respond, void *respond_ctx, const c2d_move_options *options,
                               c2d_move_result *result, c2d_world_contact *contacts, int capacity)
{
    motion_out out = {contacts, NULL, capacity, NULL, NULL};
    return world_step_ball(world, ball, dt, filter, respond, respond_ctx, options, result, &out);
}

c2d_status c2d_world_step_ball_records(const c2d_world *world, c2d_ball *ball, double dt,
                                       const c2d_world_filter *filter, c2d_world_response_fn respond,
                                       void *respond_ctx, const c2d_move_options *options, c2d_move_result *result,
                                       c2d_contact_record *records, int capacity)
{
    motion_out out = {NULL, records, capacity, NULL, NULL};
    return world_step_ball(world, ball, dt, filter, respond, respond_ctx, options, result, &out);
}

c2d_status c2d_world_step_ball_report(const c2d_world *world, c2d_ball *ball, double dt,
                                      const c2d_world_filter *filter, c2d_world_response_fn respond,
                                      void *respond_ctx, const c2d_move_options *options, c2d_move_result *result,
                                      c2d_records_fn report, void *report_ctx)
{
    if (!report)
        return C2D_ERR_NULL;
    motion_out out = {NULL, NULL, 0, report, report_ctx};
    return world_step_ball(world, ball, dt, filter, respond, respond_ctx, options, result, &out);
}

c2d_status c2d_world_move_timed_report(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                                       double dt, const c2d_world_filter *filter, c2d_world_response_fn respond,
                                       void *respond_ctx, const c2d_move_options *options, c2d_move_result *result,
                                       c2d_records_fn report, void *report_ctx)
{
    if (!report)
        return C2D_ERR_NULL;
    motion_out out = {NULL, NULL, 0, report, report_ctx};
    return world_move(world, mover, displacement, dt, NULL, NULL, filter, respond, respond_ctx, options, result, &out);
}

c2d_status c2d_world_move_turning_timed_report(const c2d_world *world, const c2d_shape *mover,
                                               const c2d_motion *motion, double dt, const c2d_world_filter *filter,
                                               c2d_world_response_fn respond, void *respond_ctx,
                                               const c2d_move_options *options, c2d_move_result *result,
                                               double *turned, c2d_records_fn report, void *report_ctx)
{
    if (!motion || !report)
        return C2D_ERR_NULL;
    c2d_status st = c2d_check_number(dt);
    if (st != C2D_OK)
        return st;
    /* The pivot's path over the move bounds the scope (a bad velocity is refused by world_move). */
    c2d_vec2 path = v2(motion->velocity.x * dt, motion->velocity.y * dt);
    motion_out out = {NULL, NULL, 0, report, report_ctx};
    return world_move(world, mover, path, dt, motion, turned, filter, respond, respond_ctx, options, result, &out);
}

/* ---- casts and push-outs through a world: its entries and its level ---- */

/* The scope of a query that moves nothing (a cast or a push-out): every entry that passes the filter
 * within `reach` of `box`, and the level's shapes there. */
static c2d_status query_scope(scope *s, const c2d_world *world, const c2d_shape *mover, c2d_aabb box,
                              double reach, double horizon, const c2d_world_filter *filter, asked_list *accepted)
{
    asked_list done = {NULL, 0, 0};
    c2d_status st = scope_build(s, world, mover, grow(box, reach), horizon, filter, NULL, NULL, NULL,
                                C2D_RESPONSE_SLIDE, &done, accepted);
    free(done.items);
    return st;
}

c2d_status c2d_world_cast(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                          const c2d_world_filter *filter, c2d_cast *out)
{
    if (!world || !mover || !out)
        return C2D_ERR_NULL;
    if (c2d_is_compound(mover))
        return C2D_ERR_NOT_CONVEX;
    c2d_status st = c2d_check_vec(displacement);
    if (st != C2D_OK)
        return st;
    asked_list accepted = {NULL, 0, 0};
    scope s;
    c2d_toi toi;
    int k = -1;
    /* A mover that starts inside is answered with the shortest way out of the union, which may end
     * beyond the shapes near its path: the scope then grows to cover it, as for a push-out. */
    for (double reach = fabs(displacement.x) + fabs(displacement.y);;) {
        st = query_scope(&s, world, mover, c2d_shape_aabb(mover), reach, 1.0, filter, &accepted);
        if (st == C2D_OK)
            st = c2d_static_set_sweep(s.run, mover, displacement, &toi, &k);
        if (st != C2D_OK || toi.state != C2D_TOI_OVERLAP || !(toi.depth > reach) || reach >= 2 * C2D_MAX_COORDINATE)
            break;
        reach = fmin(fmax(toi.depth, 2 * reach), 2 * C2D_MAX_COORDINATE);
        scope_free(&s);
    }
    if (st == C2D_OK) {
        c2d_world_id id = 0;
        uintptr_t user = 0;
        int index = -1;
        if (k >= 0) {
            scope_member(&s, k, &id, &user, &index);
            if (id != 0)
                index = -1; /* an entry is named by its id */
        }
        *out = c2d_cast_of_toi(mover, displacement, &toi, index, id, user);
    }
    free(accepted.items);
    scope_free(&s);
    return st;
}

c2d_status c2d_world_push_out(const c2d_world *world, const c2d_shape *mover, const c2d_world_filter *filter,
                              c2d_vec2 *out)
{
    if (!world || !mover || !out)
        return C2D_ERR_NULL;
    if (c2d_is_compound(mover))
        return C2D_ERR_NOT_CONVEX;
    c2d_aabb box = c2d_shape_aabb(mover);
    asked_list accepted = {NULL, 0, 0};
    c2d_vec2 d = v2(0, 0);
    c2d_status st = C2D_OK;
    /* The way out is the shortest among the shapes near the mover; where it ends beyond them, shapes
     * there may hold it: the scope grows to cover where it ends, and the push-out is asked again. */
    for (double reach = 0;;) {
        scope s;
        st = query_scope(&s, world, mover, box, reach, 0.0, filter, &accepted);
        if (st == C2D_OK)
            st = c2d_static_set_push_out(s.run, mover, &d);
        scope_free(&s);
        if (st != C2D_OK || !(linf(d) > reach) || reach >= 2 * C2D_MAX_COORDINATE)
            break;
        reach = fmin(fmax(linf(d), 2 * reach), 2 * C2D_MAX_COORDINATE);
    }
    free(accepted.items);
    if (st == C2D_OK)
        *out = d;
    return st;
}

/* ---- the character mover through a world ---- */

/* The caller's respond, with crossing made passing: the character mover meets only solid shapes. */
typedef struct character_respond {
    c2d_world_response_fn respond;
    void *ctx;
} character_respond;

static c2d_response character_answer(void *ctx, c2d_world_id id, uintptr_t user)
{
    const character_respond *cr = (const character_respond *)ctx;
    c2d_response r = cr->respond(cr->ctx, id, user);
    return r == C2D_RESPONSE_CROSS ? C2D_RESPONSE_NONE : r;
}

/* The records a static set's _report call hands over (the character mover's, the step of many balls'),
 * kept in a list (ctx). */
static c2d_status list_keep(void *ctx, const c2d_contact_record *records, int count)
{
    c2d_record_list *l = (c2d_record_list *)ctx;
    c2d_record_list_clear(l);
    for (int i = 0; i < count; i++) {
        c2d_contact_record *r = c2d_record_list_push(l);
        if (!r)
            return C2D_ERR_NO_MEMORY;
        *r = records[i];
    }
    return C2D_OK;
}

c2d_status c2d_world_move_character(const c2d_world *world, const c2d_shape *mover, c2d_vec2 displacement,
                                    const c2d_world_filter *filter, c2d_world_response_fn respond,
                                    void *respond_ctx, const c2d_character_options *options,
                                    c2d_world_character_state *state, c2d_character_result *result,
                                    c2d_records_fn report, void *report_ctx)
{
    if (!world || !mover || !state || !result)
        return C2D_ERR_NULL;
    /* Refused before any callback runs: a rejected call changes nothing, not even through them. */
    if (c2d_is_compound(mover))
        return C2D_ERR_NOT_CONVEX;
    c2d_character_options o = options ? *options : c2d_character_options_default();
    c2d_status st = c2d_character_check(displacement, &o, state->ground_normal, state->ground_velocity);
    if (st != C2D_OK)
        return st;
    int grounded_in = state->grounded != 0;
    /* The ground: an entry (by id), or a shape of the level (id 0, by its index there). */
    int level_ground = grounded_in && state->ground_id == 0;
    if (level_ground && (!world->level || state->ground_index < 0))
        grounded_in = level_ground = 0;
    c2d_motion ground_motion;
    memset(&ground_motion, 0, sizeof ground_motion);
    if (level_ground)
        st = c2d_static_set_get_motion(world->level, state->ground_index, &ground_motion);
    else if (grounded_in)
        st = c2d_world_get_motion(world, state->ground_id, &ground_motion);
    if (st != C2D_OK)
        return st;
    character_respond cr = {respond, respond_ctx};
    c2d_world_response_fn answer = respond ? character_answer : NULL;
    /* Its reach: the motion, a step up and back down, the look down, and the ride: on ground that turns,
     * the motion of a point of the character, at most |v| + 2 |sin(w / 2)| times its distance from the
     * pivot (l1 within twice that). */
    double ride = l1(ground_motion.velocity);
    if (ground_motion.angular_velocity != 0) {
        const c2d_shape *g = NULL;
        if (level_ground)
            c2d_static_set_get_shape(world->level, state->ground_index, &g);
        else
            g = c2d_lookup(world, state->ground_id)->shape;
        c2d_vec2 c = c2d_shape_frame_point(g, ground_motion.pivot);
        c2d_aabb mb = c2d_shape_aabb(mover);
        double far = 0;
        for (int k = 0; k < 4; k++) {
            c2d_vec2 corner = v2(k & 1 ? mb.max.x : mb.min.x, k & 2 ? mb.max.y : mb.min.y);
            far = dmax(far, v2_len(v2_sub(corner, c)));
        }
        ride += 2 * fmin(2.0, fabs(ground_motion.angular_velocity)) * far;
    }
    double reach = l1(displacement) + 2 * o.step_height + o.snap_distance + ride;
    if (!(reach <= 2 * C2D_MAX_COORDINATE))
        return C2D_ERR_RANGE;
    c2d_aabb box = c2d_shape_aabb(mover);
    c2d_vec2 start = mover->pos;
    c2d_contact_record stack[STACK_RECORDS];
    c2d_record_list tmp;
    c2d_record_list_init(&tmp, stack, STACK_RECORDS);
    asked_list done = {NULL, 0, 0}, accepted = {NULL, 0, 0};
    scope s;
    c2d_character_state cs;
    c2d_character_result res;
    for (;;) {
        st = scope_build(&s, world, mover, grow(box, reach), 1.0, filter, answer, &cr, NULL, C2D_RESPONSE_SLIDE, &done,
                         &accepted);
        if (st != C2D_OK)
            break;
        /* The ground, by its place in the set the motion runs through (not there, filtered out or
         * ignored: none). */
        memset(&cs, 0, sizeof cs);
        cs.ground_index = -1;
        if (level_ground && s.run == s.level) {
            cs.ground_index = state->ground_index;
        } else if (level_ground) {
            for (int k = 0; k < s.m; k++)
                if (s.members[k] == state->ground_index)
                    cs.ground_index = k;
        } else if (grounded_in) {
            for (int k = 0; k < s.n && s.run == s.set; k++)
                if (s.hits[k].id == state->ground_id)
                    cs.ground_index = s.m + k;
        }
        if (cs.ground_index >= 0) {
            cs.grounded = 1;
            cs.ground_normal = state->ground_normal;
        }
        st = c2d_static_set_move_character(s.run, mover, displacement, &o, &cs, &res, list_keep, &tmp);
        if (st != C2D_OK)
            break;
        /* Pushed out first, or thrown by an entry in motion: every place it took must lie in the scope,
         * else the scope grows and the motion runs again. */
        double need = linf(res.displacement) + 2 * o.step_height + o.snap_distance;
        for (int i = 0; i < tmp.count; i++)
            need = dmax(need, linf(v2_sub(tmp.items[i].position, start)) + o.snap_distance);
        if (!(need > reach + 1e-12 * (1 + reach + linf(start))) || reach >= 2 * C2D_MAX_COORDINATE)
            break;
        reach = fmin(fmax(need, 2 * reach), 2 * C2D_MAX_COORDINATE);
        scope_free(&s);
    }
    if (st == C2D_OK && report) {
        map_contacts(&s, tmp.items, tmp.count, NULL, NULL);
        st = report(report_ctx, tmp.items, tmp.count);
    }
    if (st == C2D_OK) {
        c2d_world_character_state out;
        memset(&out, 0, sizeof out);
        out.grounded = cs.grounded;
        out.ground_index = -1;
        if (cs.grounded) {
            int index;
            scope_member(&s, cs.ground_index, &out.ground_id, &out.ground_user, &index);
            if (out.ground_id == 0)
                out.ground_index = index;
            out.ground_normal = cs.ground_normal;
            out.ground_point = cs.ground_point;
            out.ground_velocity = cs.ground_velocity;
        }
        *state = out;
        *result = res;
    }
    c2d_record_list_free(&tmp);
    free(done.items);
    free(accepted.items);
    scope_free(&s);
    return st;
}

/* ---- many balls through a world ---- */

/* How far, along either axis, a ball of radius r at p sticks out of box (0 when it lies inside). */
static double beyond(c2d_aabb box, c2d_vec2 p, double r)
{
    double e = dmax(box.min.x - (p.x - r), (p.x + r) - box.max.x);
    return dmax(0.0, dmax(e, dmax(box.min.y - (p.y - r), (p.y + r) - box.max.y)));
}

/* How far beyond box (the balls' box where they start) the balls may have been during a step of many
 * balls through a scope that took T, balls from `start` to `end`: between its contacts a ball goes
 * straight (as the set's step makes it, on either side of a contact with another ball), so every place
 * it took lies between its start, the places of its records (with the ball they are about in id - 1, as
 * the set's call gives them) and its end, which bound it. The one motion not straight is a ride on a
 * turning shape after a contact with it (see scope_extent), bounded the same way for every such contact,
 * whether or not a later contact with another ball cut that ride short. */
static double balls_extent(const scope *s, c2d_aabb box, const c2d_ball *start, const c2d_ball *end, int n,
                           const c2d_contact_record *records, int count, double T)
{
    double need = 0;
    for (int i = 0; i < n; i++)
        need = dmax(need, beyond(box, end[i].position, end[i].radius));
    for (int q = 0; q < count; q++) {
        const c2d_contact_record *rec = &records[q];
        double r = start[rec->id - 1].radius;
        need = dmax(need, beyond(box, rec->position, r));
        int k = rec->contact.index;
        c2d_motion m;
        if (k >= 0 && rec->contact.t < 1 && c2d_static_set_get_motion(s->run, k, &m) == C2D_OK &&
            m.angular_velocity != 0) {
            c2d_vec2 c = c2d_shape_frame_point(scope_shape(s, k), m.pivot);
            double tau = rec->contact.t * T, speed = l1(m.velocity);
            double arm = l1(v2_sub(rec->position, c)) + speed * T;
            need = dmax(need, beyond(box, rec->position, r + (speed + fabs(m.angular_velocity) * arm) * (T - tau)));
        }
    }
    return need;
}

c2d_status c2d_world_step_balls(const c2d_world *world, c2d_ball *balls, const double *masses, int n, double dt,
                                const c2d_world_filter *filter, c2d_world_response_fn respond, void *respond_ctx,
                                const c2d_move_options *options, const c2d_balls_options *ball_options,
                                c2d_move_result *result, c2d_balls_records_fn report, void *report_ctx)
{
    if (n < 0)
        return C2D_ERR_RANGE;
    if (!world || (n > 0 && !balls))
        return C2D_ERR_NULL;
    /* Refused before any callback runs: a rejected call changes nothing, not even through them. */
    int shapes = 0;
    c2d_status st = c2d_balls_check(balls, masses, n, dt, ball_options);
    if (st == C2D_OK)
        st = check_move_options(world, options);
    if (st == C2D_OK && world->level)
        st = c2d_static_set_get_count(world->level, &shapes);
    if (st == C2D_OK)
        st = c2d_move_options_check(options, shapes);
    if (st != C2D_OK)
        return st;
    c2d_move_result res;
    memset(&res, 0, sizeof res);
    if (n == 0) {
        /* Nothing moves, so nothing is near: no entry to ask about, no record. */
        c2d_contact_record none;
        int nobody = 0;
        if (report && (st = report(report_ctx, &none, &nobody, 0)) != C2D_OK)
            return st;
        if (result)
            *result = res;
        return C2D_OK;
    }
    /* The box of the balls where they start, and the longest path one of them takes on its own: the
     * first scope, as a ball step's. */
    c2d_aabb box;
    box.min = v2(balls[0].position.x - balls[0].radius, balls[0].position.y - balls[0].radius);
    box.max = v2(balls[0].position.x + balls[0].radius, balls[0].position.y + balls[0].radius);
    double reach = 0;
    for (int i = 0; i < n; i++) {
        const c2d_ball *b = &balls[i];
        box.min = v2(fmin(box.min.x, b->position.x - b->radius), fmin(box.min.y, b->position.y - b->radius));
        box.max = v2(dmax(box.max.x, b->position.x + b->radius), dmax(box.max.y, b->position.y + b->radius));
        reach = dmax(reach, (fabs(b->velocity.x) + fabs(b->velocity.y)) * dt);
    }
    double far = dmax(linf(box.min), linf(box.max));
    c2d_ball *work = (c2d_ball *)malloc((size_t)n * sizeof *work);
    int *which = NULL;
    c2d_contact_record stack[STACK_RECORDS];
    c2d_record_list tmp;
    c2d_record_list_init(&tmp, stack, STACK_RECORDS);
    asked_list done = {NULL, 0, 0}, accepted = {NULL, 0, 0};
    scope s;
    memset(&s, 0, sizeof s);
    st = work ? C2D_OK : C2D_ERR_NO_MEMORY;
    while (st == C2D_OK) {
        st = scope_build(&s, world, NULL, grow(box, reach), dt, filter, respond, respond_ctx, options,
                         C2D_RESPONSE_BOUNCE, &done, &accepted);
        if (st != C2D_OK)
            break;
        c2d_move_options o = scope_options(&s, options);
        memcpy(work, balls, (size_t)n * sizeof *work);
        c2d_record_list_clear(&tmp);
        st = c2d_static_set_step_balls(s.run, work, masses, n, dt, &o, ball_options, &res, list_keep, &tmp);
        if (st != C2D_OK)
            break;
        /* Balls thrown by other balls (a light one by a heavy one, up to twice its speed) or by entries in
         * motion, or pushed out, may have gone beyond the scope: grow it (at least doubling, so the rounds
         * are few) unless every place a ball took lies within it (give or take a hair of rounding, as
         * run_motion allows), or it covers the whole coordinate range. */
        double need = balls_extent(&s, box, balls, work, n, tmp.items, tmp.count, dt);
        if (!(need > reach + 1e-12 * (1 + reach + far)) || reach >= 2 * C2D_MAX_COORDINATE)
            break;
        reach = fmin(fmax(need, 2 * reach), 2 * C2D_MAX_COORDINATE);
        scope_free(&s);
        memset(&s, 0, sizeof s);
    }
    if (st == C2D_OK && report) {
        which = (int *)malloc((size_t)(tmp.count > 0 ? tmp.count : 1) * sizeof *which);
        if (!which)
            st = C2D_ERR_NO_MEMORY;
        for (int q = 0; q < tmp.count && st == C2D_OK; q++) {
            c2d_contact_record *rec = &tmp.items[q];
            which[q] = (int)(rec->id - 1);
            if (rec->contact.index >= 0) {
                scope_member(&s, rec->contact.index, &rec->id, &rec->user, &rec->contact.index);
            } else { /* another ball, named by its index as the set's call names it */
                rec->id = 0;
                rec->user = 0;
            }
        }
        if (st == C2D_OK)
            st = report(report_ctx, tmp.items, which, tmp.count);
    }
    if (st == C2D_OK) {
        memcpy(balls, work, (size_t)n * sizeof *balls);
        if (result)
            *result = res;
    }
    free(which);
    free(work);
    c2d_record_list_free(&tmp);
    free(done.items);
    free(accepted.items);
    scope_free(&s);
    return st;
}
