#!/bin/sh
# A hearts bot in POSIX sh, with no JSON library and no other program: it answers each
# view with its first legal cards.  hearts sim --seats "exec:sh examples/first_legal.sh,easy,normal,hard"
while IFS= read -r line; do
    case $line in '{"event":"view"'*) ;; *) continue ;; esac
    phase=${line#*\"phase\":\"}; phase=${phase%%\"*}
    legal=${line#*\"legal\":\[}; legal=${legal%%]*}
    set -f; IFS=,; set -- $legal; unset IFS; set +f
    case $phase in
        pass) printf '{"cmd":"pass","cards":[%s,%s,%s]}\n' "$1" "$2" "$3" ;;
        play) printf '{"cmd":"play","card":%s}\n' "$1" ;;
        moon) printf '{"cmd":"moon","choice":"others"}\n' ;;
    esac
done
