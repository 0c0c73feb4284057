/* fuzz_api.c - the libFuzzer harness for the public C API: it decodes the input bytes into a sequence
 * of API calls on a handful of shape slots and checks, after every call, the invariants the header
 * promises for every input it accepts. A broken invariant prints what broke and aborts, so libFuzzer
 * (and `make fuzz-regress`) records it like a crash.
 *
 * Input format: a stream of operations. Each operation is one byte; its low 6 bits index fz_ops[]
 * (slots past the end of the table are no-ops), and the operation then reads its own arguments. Numbers
 * come from fz_number(): special values (NaN, infinities, signed zeros, denormals, 1e300, values at and
 * just past C2D_MAX_COORDINATE), small fixed-point values (exactly representable, so shapes touch
 * exactly), raw doubles, and powers of two times a mantissa over the whole exponent range. Running out
 * of bytes reads zeros, so every input decodes to something.
 *
 * Extending: append new operations at the END of fz_ops[] and never reorder it, so the committed
 * corpus keeps meaning what it meant. Each op is one short function taking the state, in the ops_*.c
 * file of its concern, declared in fz.h.
 *
 * This file holds the op table and the entry point; the rest of the harness is split by concern, one
 * file each (fz.h lists them): the shared state, failing and decoding (fz.h, fz_core.c), the exact
 * oracle (fz_oracle.c), compound shapes and their rings (fz_model.c), the query checks (fz_checks.c)
 * and the operations (ops_*.c).
 *
 * Operations: shapes (0-19), c2d_sweep (20), static sets (21-27: new, enable, mark neighbours, sweep,
 * push-out, move, ball step; is_seam and the member getters are read after every set call), worlds
 * (28-37: new and margins, add, remove, update, bits/user/getters/pair filter, box/point/shape queries,
 * rays, pairs, optimize, moves and ball steps), feature rays (38), shared points (39), and the members
 * of a set that move and block from one side (40-43: re-place a member, its velocity, its one-way
 * direction, a world entry's one-way direction), chains and concave polygons (44-47), c2d_sweep_motion
 * (48), a member's rigid motion, a turn about a pivot (49), a move that turns the mover (50), the world's
 * level (51, 52: the set as the level of the world, and world motions through it), casts (53), world
 * push-outs (54), timed moves (55), a static set's queries and rays (56), a world entry enabled or
 * disabled (57) and given a velocity (58), the character mover through a set and a world (59, 60), and
 * many balls stepped at once (61). Every set and world move and ball step
 * is also run in its _records form and compared. The harness keeps copies of the set's shapes (placed
 * where the set's members stand, with their motions and one-way directions) and a model of the world, and
 * checks their results against brute force (c2d_sweep, c2d_distance, c2d_overlap, c2d_raycast over
 * the live entries); fuzz/README.md lists the invariants.
 *
 * Invariants checked (in fz_checks.c and the ops_*.c files): every status is a c2d_status value; a call
 * that should be accepted (all numbers finite and in range, sizes positive, non-degenerate) returns
 * C2D_OK and one that should not is rejected; a rejected call writes no out-parameter and leaves the
 * shape unchanged (snapshot compare); accepted calls produce finite outputs, unit normals, depth >= 0;
 * overlap, collide, distance and point queries agree with each other and under argument swap, except
 * within a tolerance of touching relative to the size of the scene. */
#include "fz.h"

/* The op table. Append only (see the file comment); the index is the op byte's low 6 bits. */
static const struct {
    const char *name;
    void (*run)(fz_state *);
} fz_ops[] = {
    {"circle", op_circle},
    {"rect", op_rect},
    {"polygon", op_polygon},
    {"hull", op_hull},
    {"capsule", op_capsule},
    {"segment", op_segment},
    {"clone", op_clone},
    {"destroy", op_destroy},
    {"set_position", op_set_position},
    {"set_angle", op_set_angle},
    {"set_transform", op_set_transform},
    {"move", op_move},
    {"rotate", op_rotate},
    {"pair", op_pair},
    {"all_pairs", op_all_pairs},
    {"point", op_point},
    {"raycast", op_raycast},
    {"aimed_ray", op_aimed_ray},
    {"vertices", op_vertices},
    {"misc", op_misc},
    {"sweep", op_sweep},
    {"set_new", op_set_new},
    {"set_enable", op_set_enable},
    {"set_mark", op_set_mark},
    {"set_sweep", op_set_sweep},
    {"set_push_out", op_set_push_out},
    {"set_move", op_set_move},
    {"set_ball", op_set_ball},
    {"world_new", op_world_new},
    {"world_add", op_world_add},
    {"world_remove", op_world_remove},
    {"world_update", op_world_update},
    {"world_set", op_world_set},
    {"world_query", op_world_query},
    {"world_ray", op_world_ray},
    {"world_pairs", op_world_pairs},
    {"world_optimize", op_world_optimize},
    {"world_move", op_world_move},
    {"feature_ray", op_feature_ray},
    {"share", op_share},
    {"set_place", op_set_place},
    {"set_velocity", op_set_velocity},
    {"set_one_way", op_set_one_way},
    {"world_one_way", op_world_one_way},
    {"concave", op_concave},
    {"chain", op_chain},
    {"ring_point", op_ring_point},
    {"far", op_far},
    {"sweep_motion", op_sweep_motion},
    {"set_motion", op_set_motion},
    {"set_move_turning", op_set_move_turning},
    {"world_level", op_world_level},
    {"world_level_move", op_world_level_move},
    {"casts", op_casts},
    {"world_push_out", op_world_push_out},
    {"timed", op_timed},
    {"set_query", op_set_query},
    {"world_enable", op_world_enable},
    {"world_velocity", op_world_velocity},
    {"set_character", op_set_character},
    {"world_character", op_world_character},
    {"set_balls", op_set_balls},
    /* new operations go here, appended */
};
#define FZ_NOPS ((int)(sizeof fz_ops / sizeof fz_ops[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_state st;
    memset(&st, 0, sizeof st);
    st.p = data;
    st.n = size;
    if (fz_trace < 0)
        fz_trace = getenv("FZ_TRACE") != NULL;
    if (fz_strict_touch < 0)
        fz_strict_touch = getenv("FZ_STRICT_COMPOUND_TOUCH") != NULL && getenv("FZ_STRICT_COMPOUND_TOUCH")[0] == '1';
    if (fz_strict_joints < 0)
        fz_strict_joints = getenv("FZ_STRICT_JOINTS") != NULL && getenv("FZ_STRICT_JOINTS")[0] == '1';
    if (fz_strict_misc < 0)
        fz_strict_misc = getenv("FZ_STRICT_MISC") != NULL && getenv("FZ_STRICT_MISC")[0] == '1';
    /* Fixed in the library (a direction given to a one-sided chain stays): strict unless asked not to. */
    if (fz_strict_chain < 0)
        fz_strict_chain = !(getenv("FZ_STRICT_CHAIN_ONE_WAY") != NULL && getenv("FZ_STRICT_CHAIN_ONE_WAY")[0] == '0');
    if (fz_strict_pivot < 0)
        fz_strict_pivot = !(getenv("FZ_STRICT_MOTION_PIVOT") != NULL && getenv("FZ_STRICT_MOTION_PIVOT")[0] == '0');
    if (fz_strict_circle_pivot < 0)
        fz_strict_circle_pivot =
            !(getenv("FZ_STRICT_CIRCLE_PIVOT") != NULL && getenv("FZ_STRICT_CIRCLE_PIVOT")[0] == '0');
    if (fz_strict_carry < 0)
        fz_strict_carry = !(getenv("FZ_STRICT_CARRY") != NULL && getenv("FZ_STRICT_CARRY")[0] == '0');
    if (fz_strict_balls < 0)
        fz_strict_balls = !(getenv("FZ_STRICT_BALLS_PUSH_OUT") != NULL && getenv("FZ_STRICT_BALLS_PUSH_OUT")[0] == '0');
    if (fz_strict_pairs < 0)
        fz_strict_pairs = !(getenv("FZ_STRICT_COMPOUND_PAIRS") != NULL && getenv("FZ_STRICT_COMPOUND_PAIRS")[0] == '0');
    fz_trace_slots = st.slot;
    fz_trace_state = &st;
    /* Bounded work per input, whatever its length. */
    for (int steps = 0; st.n > 0 && steps < 64; steps++) {
        int op = fz_byte(&st) % FZ_OP_SLOTS;
        if (op >= FZ_NOPS)
            continue;
        fz_current_op = fz_ops[op].name;
        if (fz_trace)
            fprintf(stderr, "%s", fz_current_op);
        if (fz_trace && getenv("FZ_TRACE")[0] == '2')
            fz_dump_slots();
        fz_ops[op].run(&st);
        if (fz_trace)
            fprintf(stderr, "\n");
    }
    fz_current_op = "all_pairs (final)";
    st.all_pairs_runs = 0;
    op_all_pairs(&st);
    fz_current_op = "cleanup";
    if (st.world) {
        fz_world_snap sn;
        fz_world_snapshot(&st, &sn);
    }
    fz_world_free(&st);
    fz_set_free(&st);
    for (int i = 0; i < FZ_SLOTS; i++)
        c2d_shape_destroy(st.slot[i]);
    return 0;
}
