# SPDX-License-Identifier: GPL-2.0
# rvgen's model reader and validator without its emitters: the DOT model
# through graphviz cgraph, the label grammar, the checks (determinism,
# reachability, names) and their `file:line: message` errors. rvgen links
# them with its emitters (rvgen.mk: RVGEN_LIB_SRCS); the tool links them
# alone for logical supervision (user/kinds/logic.c, user/user.mk), so a model
# means the same to both. Read by product builds too (no test fragment).
RVGEN_MODEL_SRCS := rvgen/fileio.c rvgen/grammar.c rvgen/model.c rvgen/validate.c rvgen/label.c rvgen/names.c rvgen/srcline.c
# cgraph only: the tool lays nothing out (libgvc is rvgen's, for svg).
RVGEN_MODEL_PKGS := libcgraph
