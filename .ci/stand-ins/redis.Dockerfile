# Stand-in for the official redis image: Debian's redis-server (7.0) from the debootstrap root. Like the
# official image's entrypoint, `redis-server …` without a config file runs with protected mode off (the
# container's network is the protection) and its data in /data.
FROM cuecast-ci/bookworm:latest
WORKDIR /data
ENTRYPOINT ["/bin/sh", "-c", "if [ \"$1\" = redis-server ]; then shift; exec redis-server --protected-mode no \"$@\"; fi; exec \"$@\"", "--"]
CMD ["redis-server"]
