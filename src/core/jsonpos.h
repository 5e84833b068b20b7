/*
 * jsonpos.h - where a JSON path points in the text it came from.
 *
 * cJSON keeps no positions, so a problem found after parsing carries a
 * JSON path ("blocks[3].text") instead of a line. json_locate scans the
 * text again and finds the line and column of the value at that path, so
 * every diagnostic can read FILE:LINE:COL: and an editor can jump to it.
 */
#ifndef PARLEARN_CORE_JSONPOS_H
#define PARLEARN_CORE_JSONPOS_H

#include "core/err.h"

/*
 * Line and column (1-based; the column in characters, as the JSON reader
 * counts them) of the value at path in text. path uses the form of
 * pl_json_path_key/_index: "title", "blocks[3].text", "" for the root.
 * Returns 0 when the whole path was found, 1 when only a prefix was (then
 * the position is the deepest value found: the object that lacks a
 * required key, for instance), -1 when the text holds no value at all.
 */
int	json_locate(const char *text, const char *path, int *line, int *col);

/*
 * Give err a position from text when it has a JSON path and no line.
 * Returns 1 when it did.
 */
int	json_locate_err(const char *text, struct pl_err *err);

#endif
