/**
 * The two small shell programs around bwrap (run by bash when it is installed, else sh). Both take everything as positional arguments (never spliced into the
 * script text), so no path or argument needs quoting. A setup failure exits 125 with a line on stderr saying what
 * failed, before the command has run.
 */

/** The port the bridge listens on inside the sandbox's own network namespace (only the run can reach it). */
export const BRIDGE_PORT = 3128;
/**
 * The first steps of whichever script runs first: join the run's cgroups (so every process the run ever starts is
 * inside them: nothing of the run has forked yet), set RLIMIT_CPU, open the seccomp program on fd 9.
 * Arguments: <n> <cgroup.procs>×n <cpu seconds | -> <seccomp file>, shifted off.
 */
const SETUP = [
  'n=$1; shift',
  'while [ "$n" -gt 0 ]; do echo $$ > "$1" || { echo "omni sandbox: cannot join cgroup $1" >&2; exit 125; }; shift; n=$((n - 1)); done',
  'if [ "$1" != - ]; then ulimit -t "$1" || { echo "omni sandbox: cannot set RLIMIT_CPU" >&2; exit 125; }; fi; shift',
  'exec 9< "$1" || { echo "omni sandbox: cannot open the seccomp filter" >&2; exit 125; }; shift',
];

/**
 * With bash, a script first closes every descriptor but stdin, stdout and stderr: bwrap passes whatever it inherits
 * into the sandbox, and a descriptor the host's own parent leaked without close-on-exec (a pipe, a socket) would be
 * a way out. (dash, the usual /bin/sh, cannot name descriptors above 9.)
 */
// /proc/self, not /proc/$$: in the outer layer $$ is a pid of its own namespace while /proc is the host's.
const CLOSE_INHERITED = 'for fd in /proc/self/fd/*; do n=${fd##*/}; case $n in 0|1|2|*[!0-9]*) ;; *) eval "exec $n>&-" 2>/dev/null ;; esac; done';

/** Runs on the host, as the spawned process, for a one-layer run: the setup, then exec bwrap. Arguments: setup, then bwrap's argv. */
export function hostScript(bash: boolean): string {
  return [...(bash ? [CLOSE_INHERITED] : []), ...SETUP, 'exec "$@"'].join('\n');
}

/**
 * Runs inside the outer bwrap (its own user, mount and network namespaces; no seccomp yet), when the run stages its
 * writes, has a network grant or reaches a host service: starts one bridge per socket (socat: TCP 127.0.0.1:<port> →
 * a unix socket on the host: the allowlist proxy's on 3128, a local service's such as the credential proxy on its own
 * port), mounts the staging overlay over the workspace meanwhile, waits until every bridge listens, runs the inner bwrap, then
 * writes the staging manifest (see stagedWrites.ts) and exits with the command's status. socat runs here, before the
 * command's seccomp filter, which still refuses AF_UNIX to the command.
 *
 * The outer layer shares the host's pid namespace on purpose: the inner bwrap, root in the outer user namespace,
 * finds its child under /proc by pid, and /proc here is the host's. The bridges end with this script (killed at the
 * end; setpriv --pdeathsig, where installed, kills it if this script is killed; a kill of the run's process group
 * reaches it too).
 *
 * It does the setup itself (the outer bwrap is what the caller spawns: one process fewer to start), so the outer
 * bwrap's own process is the only one outside the run's cgroups.
 *
 * Staging (stagedWrites.ts): a tmpfs of the run's limit is mounted on <staging> in this namespace, the overlay's upper
 * and work directories made on it (so the kernel bounds what the run can stage). While the command runs a watcher
 * looks at the tmpfs five times a second: once it is full (no free block, or no free inode) it records which in
 * <full> and ends the run (SIGKILL to the run's process group: this script, both bwraps, the bridges; the command
 * dies with its pid namespace), since a full staging can only be dropped. The same look is taken when the command
 * ends. Only a run that exited 0 without filling it gets its manifest, and its upper layer copied out to <upper> on
 * disk (cp -a: modes, links, holes and hard links kept; whiteouts too, which the commit skips), for the host to commit.
 * Arguments: setup, then <workspace> <staging | -> <limit bytes> <inodes> <root mode> <upper> <manifest> <full>
 * <setpriv | -> <n> (<port> <socket>)×n <inner bwrap argv...>
 */
const OUTER_BODY = [
  'ws=$1 st=$2 size=$3 inodes=$4 mode=$5 up=$6 manifest=$7 full=$8 setpriv=$9 n=${10}; shift 10',
  // bridges: socat's pids; nb: how many.
  'bridges= nb=0 watcher=',
  'while [ "$n" -gt 0 ]; do',
  '  port=$1 sock=$2; shift 2; n=$((n - 1))',
  '  if [ "$setpriv" != - ]; then "$setpriv" --pdeathsig KILL -- socat "TCP-LISTEN:$port,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$sock" </dev/null >/dev/null 2>&1 &',
  '  else socat "TCP-LISTEN:$port,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$sock" </dev/null >/dev/null 2>&1 & fi',
  '  bridges="$bridges $!" nb=$((nb + 1))',
  'done',
  // Sets kind to "bytes" or "inodes" when the staging tmpfs has no room left, else to nothing. It sets a variable
  // rather than printing: called as $(full_now) it would cost the run's end a second fork.
  `full_now() { kind=; case $(stat -f -c '%a %d' "$st" 2>/dev/null) in '0 '*) kind=bytes ;; *' 0') kind=inodes ;; esac; }`,
  'if [ "$st" != - ]; then',
  '  mount -t tmpfs -o "size=$size,nr_inodes=$inodes,mode=0700" omni-staging "$st" || { echo "omni sandbox: cannot mount the staging tmpfs" >&2; exit 125; }',
  // One mkdir for both, with the workspace root's mode (the work directory's mode does not matter: the command never
  // sees it), instead of mkdir then chmod: one process fewer on every staged run's start.
  '  mkdir -m "$mode" "$st/upper" "$st/work" || { echo "omni sandbox: cannot prepare the staging layer" >&2; exit 125; }',
  // Relative upper and work paths (from inside the tmpfs): the app home's path may hold a "," or ":" the option
  // string cannot carry (the workspace's path is checked for them before the run).
  '  cd "$st" && mount -t overlay overlay -o "lowerdir=$ws,upperdir=upper,workdir=work,userxattr" "$ws" && cd / || { echo "omni sandbox: cannot mount the staging overlay" >&2; exit 125; }',
  '  { while sleep 0.2; do full_now; if [ -n "$kind" ]; then echo "$kind" > "$full"; kill -KILL 0; fi; done; } </dev/null >/dev/null 2>&1 &',
  '  watcher=$!',
  'fi',
  'if [ "$nb" -eq 0 ]; then',
  '  "$@"',
  'else',
  // The inner bwrap sets up its namespaces while the bridge starts; it waits (--block-fd 8, before running the
  // command) for the byte this loop writes once every socat listens. If a bridge never listens, no byte comes, the
  // command runs without it: that service unreachable, which is the safe way to fail.
  // Ready is told by /proc/net/sockstat: "TCP: inuse N" counts the TCP sockets listening or connected in this
  // network namespace, and until the command runs only the bridges have any, each listening on its own port. Not
  // /proc/net/tcp: reading it walks the whole machine's connection hash even in a fresh network namespace, far
  // slower a look, and on busy cores it slows the bridge's own start (docs/performance.md#sandbox).
  '  bw=$1; shift; exec 3<&0',
  '  {',
  '    ready=; tries=0',
  '    while [ -z "$ready" ]; do',
  '      while read -r proto _ inuse _; do [ "$proto" = TCP: ] && [ "$inuse" -ge "$nb" ] && ready=1; done < /proc/net/sockstat',
  // At most 1,000,000 looks: about a minute of looking.
  '      tries=$((tries + 1)); [ "$tries" -gt 1000000 ] && { echo "omni sandbox: a bridge to the host did not start" >&2; exit 0; }',
  '    done',
  '    echo go',
  '  } | { "$bw" --block-fd 8 "$@" 8<&0 0<&3 3<&-; }',
  'fi',
  'status=$?',
  'if [ -n "$bridges" ]; then kill $bridges 2>/dev/null; fi',
  'if [ -n "$watcher" ]; then kill $watcher 2>/dev/null; fi',
  'if [ "$st" != - ]; then',
  '  full_now; if [ -n "$kind" ]; then echo "$kind" > "$full"; exit $status; fi',
  '  [ "$status" -eq 0 ] || exit $status',
  // Nothing written (the upper layer is empty): an empty manifest, without starting find.
  '  set -- "$st/upper"/* "$st/upper"/.[!.]* "$st/upper"/..?*',
  '  if [ "$#" -eq 3 ] && [ ! -e "$1" ] && [ ! -e "$2" ] && [ ! -e "$3" ] && [ ! -L "$1" ] && [ ! -L "$2" ] && [ ! -L "$3" ]; then',
  '    : > "$manifest"',
  '  else',
  '    find "$st/upper" -type d -exec sh -c \'up=$1 ws=$2; shift 2; for d; do rel=".${d#"$up"}"; printf "\\0%s\\0" "$rel"; find "$ws${d#"$up"}" -mindepth 1 -maxdepth 1 -printf "%f\\0"; done\' sh "$st/upper" "$ws" {} + > "$manifest" || exit 125',
  '    cp -a "$st/upper/." "$up/" || { echo "omni sandbox: cannot copy the staged writes out (is the disk full?)" >&2; exit 125; }',
  '  fi',
  // Written last, so a manifest cut short by a kill is never taken for a whole one.
  '  : > "$manifest.complete"',
  'fi',
  'exit $status',
];

export function outerScript(bash: boolean): string {
  return [...(bash ? [CLOSE_INHERITED] : []), ...SETUP, ...OUTER_BODY].join('\n');
}
