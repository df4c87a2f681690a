// -o writes what the path leads to, keeps what the target was (mode, links,
// a symbolic link staying a link), writes descriptors in place, and changes
// nothing when any output of the run fails (docs/reliability.md, "Output
// files").

// Through a symbolic link (relative, absolute, or dangling): the target gets
// the module, the link stays a link.
// RUN: T=$(mktemp -d) && shardkit-opt %s > $T/expected && echo old > $T/target \
// RUN:   && ln -s target $T/rel && ln -s $T/target $T/abs && ln -s new $T/dangling \
// RUN:   && shardkit-opt %s -o $T/rel && test -L $T/rel && cmp $T/target $T/expected \
// RUN:   && echo old > $T/target && shardkit-opt %s -o $T/abs && test -L $T/abs && cmp $T/target $T/expected \
// RUN:   && shardkit-opt %s -o $T/dangling && test -L $T/dangling && cmp $T/new $T/expected \
// RUN:   && test "$(ls $T | wc -l)" = 6 && rm -rf $T

// A link loop is an error, not a file written somewhere.
// RUN: T=$(mktemp -d) && ln -s b $T/a && ln -s a $T/b \
// RUN:   && not shardkit-opt %s -o $T/a 2>&1 | FileCheck %s --check-prefix=LOOP && rm -rf $T
// LOOP: shardkit-opt: error: cannot write '{{.*}}/a': Too many levels of symbolic links

// An existing file keeps its mode (a private file stays private) and its
// hard links (both names see the new text, as one file).
// RUN: T=$(mktemp -d) && shardkit-opt %s > $T/expected \
// RUN:   && echo old > $T/private && chmod 600 $T/private && shardkit-opt %s -o $T/private \
// RUN:   && test "$(stat -c %a $T/private)" = 600 && cmp $T/private $T/expected \
// RUN:   && echo old > $T/exec && chmod 750 $T/exec && shardkit-opt %s -o $T/exec && test "$(stat -c %a $T/exec)" = 750 \
// RUN:   && echo old > $T/a && ln $T/a $T/b && shardkit-opt %s -o $T/a \
// RUN:   && cmp $T/b $T/expected && test "$(stat -c %h $T/a)" = 2 && test "$(stat -c %i $T/a)" = "$(stat -c %i $T/b)" \
// RUN:   && test "$(ls $T | wc -l)" = 5 && rm -rf $T

// A new file gets the mode the umask gives.
// RUN: T=$(mktemp -d) && (umask 027 && shardkit-opt %s -o $T/new) && test "$(stat -c %a $T/new)" = 640 && rm -rf $T

// /dev/stdout, /dev/fd/1 and /proc/self/fd/1 write the descriptor itself: a
// redirection to a file gets the module (appended with >>).
// RUN: T=$(mktemp -d) && shardkit-opt %s > $T/expected \
// RUN:   && shardkit-opt %s -o /dev/stdout > $T/stdout && cmp $T/stdout $T/expected \
// RUN:   && shardkit-opt %s -o /proc/self/fd/1 > $T/proc && cmp $T/proc $T/expected \
// RUN:   && shardkit-opt %s -o /dev/fd/1 > $T/fd && cmp $T/fd $T/expected \
// RUN:   && (echo first && cat $T/expected) > $T/both && echo first > $T/append \
// RUN:   && shardkit-opt %s -o /dev/stdout >> $T/append && cmp $T/append $T/both \
// RUN:   && shardkit-opt %s -o /dev/stdout | cmp - $T/expected && rm -rf $T

// A descriptor that is not open is an error.
// RUN: not shardkit-opt %s -o /dev/fd/9 2>&1 | FileCheck %s --check-prefix=BADFD
// BADFD: shardkit-opt: error: cannot write '/dev/fd/9': Bad file descriptor

// A --comm-report that cannot be written leaves -o's target as it was, and
// no temporary file.
// RUN: T=$(mktemp -d) && echo old > $T/out && cp $T/out $T/copy \
// RUN:   && not shardkit-opt %s -o $T/out --comm-report=$T/missing/report.json 2> $T/err \
// RUN:   && grep -q "cannot write '.*report.json': No such file or directory" $T/err \
// RUN:   && cmp $T/out $T/copy && not shardkit-opt %s -o $T/out --comm-report=/dev/full 2> /dev/null \
// RUN:   && cmp $T/out $T/copy && test "$(ls $T | wc -l)" = 3 && rm -rf $T

// SIGTERM and SIGHUP remove the temporary file of a run they stop. The run
// waits in the open of its --comm-report FIFO, its module already written
// to the temporary file.
// RUN: T=$(mktemp -d) && mkfifo $T/fifo && for sig in TERM HUP; do \
// RUN:   shardkit-opt %s -o $T/out --comm-report=$T/fifo & pid=$!; \
// RUN:   for i in $(seq 1000); do ls $T | grep -q 'out.tmp-' && break; sleep 0.01; done; \
// RUN:   ls $T | grep -q 'out.tmp-' && kill -$sig $pid && ! wait $pid && test "$(ls $T)" = fifo || exit 1; \
// RUN:   done && rm -rf $T

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
