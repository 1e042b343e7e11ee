/* The names of the patterns of wrong values, one list. The harness prints each on its own
   "  pattern: NAME ..." line (explain.c for one matrix, ranks/explain.c across GPUs), and the grader
   explains each by that name (explain_pattern in scripts/grade/grade-words.sh; tests/test_2_unit.sh
   holds the two lists to the same names). One pattern a line: TK_PATTERN(ID, "name"). */
#ifndef TK_PATTERNS_H
#define TK_PATTERNS_H

#define TK_PATTERNS \
    TK_PATTERN(COPY, "copy") \
    TK_PATTERN(LOAD_STRIDE, "load-stride") \
    TK_PATTERN(STORE_STRIDE, "store-stride") \
    TK_PATTERN(TILE_OWN_PLACE, "tile-own-place") \
    TK_PATTERN(TILE_UNTRANSPOSED, "tile-untransposed") \
    TK_PATTERN(PAIRS, "pairs") \
    TK_PATTERN(SHIFTED, "shifted") \
    TK_PATTERN(TILE_SCRAMBLED, "tile-scrambled") \
    TK_PATTERN(UNKNOWN, "unknown") \
    TK_PATTERN(UNWRITTEN_COLUMNS, "unwritten-columns") \
    TK_PATTERN(UNWRITTEN_ROWS, "unwritten-rows") \
    TK_PATTERN(UNWRITTEN_TILE_ROWS, "unwritten-tile-rows") \
    TK_PATTERN(UNWRITTEN_TILE_COLUMNS, "unwritten-tile-columns") \
    TK_PATTERN(UNWRITTEN_ROW_ENDS, "unwritten-row-ends") \
    TK_PATTERN(UNWRITTEN_SCATTERED, "unwritten-scattered") \
    TK_PATTERN(OUT_TAIL, "out-tail") \
    TK_PATTERN(IN_TAIL, "in-tail") \
    TK_PATTERN(FOREIGN, "foreign") \
    TK_PATTERN(NONE, "none") \
    TK_PATTERN(RECV_POISON, "recv-poison") \
    TK_PATTERN(SEND_POISON, "send-poison") \
    TK_PATTERN(WRONG_RANK, "wrong-rank") \
    TK_PATTERN(WRONG_BLOCK, "wrong-block") \
    TK_PATTERN(LOCAL, "local") \
    TK_PATTERN(WRONG_WINDOW, "wrong-window") \
    TK_PATTERN(RANK_UNSTORED, "rank-unstored")

enum tk_pattern {
#define TK_PATTERN(id, name) TK_PATTERN_##id,
    TK_PATTERNS
#undef TK_PATTERN
};

static inline const char *tk_pattern_name(enum tk_pattern p)
{
    static const char *const names[] = {
#define TK_PATTERN(id, name) name,
        TK_PATTERNS
#undef TK_PATTERN
    };
    return names[p];
}

#endif
