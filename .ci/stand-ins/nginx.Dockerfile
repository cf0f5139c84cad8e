# Stand-in for the official nginx image: Debian's nginx (1.22) from the debootstrap root, configured like the
# official one (conf.d/*.conf in the http block, logs to the container's output, stops on SIGQUIT).
FROM cuecast-ci/bookworm:latest
RUN rm -f /etc/nginx/sites-enabled/default \
 && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
