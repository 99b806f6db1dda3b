// Shared lighting code for mesh.frag: light evaluation, shadow filtering and the five lighting models.
// All colours here are linear (sRGB is decoded on texture fetch / on the CPU and encoded in present.frag).

#define MAX_LIGHTS 8
#define MAX_SHADOW_MAPS 4
#define LIGHT_AMBIENT 0
#define LIGHT_DIRECTIONAL 1
#define LIGHT_OMNI 2
#define LIGHT_SPOT 3
#define MODEL_CONSTANT 0
#define MODEL_LAMBERT 1
#define MODEL_BLINN 2
#define MODEL_PHONG 3
#define MODEL_PBR 4
#define PI 3.14159265358979

uniform int uLightCount;
uniform int uLightType[MAX_LIGHTS];
// Linear colour already scaled by intensity / 1000 (lumens, 1000 = neutral) and the temperature tint.
uniform vec3 uLightColor[MAX_LIGHTS];
uniform vec3 uLightPosition[MAX_LIGHTS];
// The direction the light travels (world), for directional and spot lights.
uniform vec3 uLightDirection[MAX_LIGHTS];
// x = attenuation start, y = end (end <= start: none), z = falloff exponent.
uniform vec3 uLightAttenuation[MAX_LIGHTS];
// x = cos(inner half angle), y = cos(outer half angle).
uniform vec2 uLightSpot[MAX_LIGHTS];
// Shadow map layer, or -1 for a light without shadows.
uniform int uLightShadowLayer[MAX_LIGHTS];
// x = filter radius in texels, y = depth bias, z = sample count, w = normal offset (world units).
uniform vec4 uLightShadowParams[MAX_LIGHTS];
// rgb = shadow colour, a = its strength (SceneKit's shadowColor alpha).
uniform vec4 uLightShadowColor[MAX_LIGHTS];
uniform mat4 uShadowMatrix[MAX_SHADOW_MAPS];
uniform sampler2DArrayShadow uShadowMaps;

// A 16-tap Poisson disk (unit radius) for percentage-closer filtering.
const vec2 POISSON[16] = vec2[](
    vec2(-0.94201624, -0.39906216), vec2(0.94558609, -0.76890725), vec2(-0.09418410, -0.92938870),
    vec2(0.34495938, 0.29387760), vec2(-0.91588581, 0.45771432), vec2(-0.81544232, -0.87912464),
    vec2(-0.38277543, 0.27676845), vec2(0.97484398, 0.75648379), vec2(0.44323325, -0.97511554),
    vec2(0.53742981, -0.47373420), vec2(-0.26496911, -0.41893023), vec2(0.79197514, 0.19090188),
    vec2(-0.24188840, 0.99706507), vec2(-0.81409955, 0.91437590), vec2(0.19984126, 0.78641367),
    vec2(0.14383161, -0.14100790));

// Fraction of light reaching `worldPos` (1 = lit): Poisson-disk PCF over the hardware-compared shadow map
// (each tap is itself a bilinear 2x2 comparison), rotated per pixel to trade banding for noise.
float shadowVisibility(int light, vec3 worldPos, vec3 normal) {
#ifndef USE_SHADOWS
    return 1.0;
#else
    int layer = uLightShadowLayer[light];
    if (layer < 0) return 1.0;
    vec4 params = uLightShadowParams[light];
    vec4 p = uShadowMatrix[layer] * vec4(worldPos + normal * params.w, 1.0);
    vec3 c = p.xyz / p.w * 0.5 + 0.5;
    if (c.x < 0.0 || c.x > 1.0 || c.y < 0.0 || c.y > 1.0 || c.z > 1.0) return 1.0;
    vec2 texel = 1.0 / vec2(textureSize(uShadowMaps, 0).xy);
    float angle = 6.2831853 * fract(sin(dot(gl_FragCoord.xy, vec2(12.9898, 78.233))) * 43758.5453);
    mat2 rotation = mat2(cos(angle), sin(angle), -sin(angle), cos(angle));
    int samples = int(clamp(params.z, 1.0, 16.0));
    float lit = 0.0;
    for (int i = 0; i < samples; ++i) {
        vec2 offset = samples == 1 ? vec2(0.0) : rotation * POISSON[i] * params.x * texel;
        lit += texture(uShadowMaps, vec4(c.xy + offset, float(layer), c.z - params.y));
    }
    return lit / float(samples);
#endif
}

// Distance attenuation: 1 before `start`, 0 after `end`, (1 - t)^exponent between.
float distanceAttenuation(int light, float d) {
    vec3 a = uLightAttenuation[light];
    if (a.y <= a.x) return 1.0;
    float t = clamp((d - a.x) / (a.y - a.x), 0.0, 1.0);
    return pow(1.0 - t, max(a.z, 0.0));
}

// GGX / Trowbridge-Reitz normal distribution (Walter et al. 2007, "Microfacet Models for Refraction").
float distributionGGX(float NdotH, float alpha) {
    float a2 = alpha * alpha;
    float d = NdotH * NdotH * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

// Height-correlated Smith visibility V = G / (4 N.L N.V) (Heitz 2014), in the fast form of Filament.
float visibilitySmithGGX(float NdotV, float NdotL, float alpha) {
    float a2 = alpha * alpha;
    float gv = NdotL * sqrt(NdotV * NdotV * (1.0 - a2) + a2);
    float gl = NdotV * sqrt(NdotL * NdotL * (1.0 - a2) + a2);
    return 0.5 / max(gv + gl, 1e-5);
}

// Schlick's Fresnel approximation (Schlick 1994).
vec3 fresnelSchlick(float cosTheta, vec3 f0) {
    return f0 + (1.0 - f0) * pow(1.0 - cosTheta, 5.0);
}

struct Surface {
    vec3 position;   // world
    vec3 normal;     // world, unit, facing the viewer for double-sided faces
    vec3 view;       // unit, towards the camera
    vec3 diffuse;    // linear albedo (base colour for PBR)
    vec3 specular;   // linear specular colour (blinn/phong)
    float shininess; // specular exponent (blinn/phong)
    float metalness;
    float roughness; // perceptual roughness
    float occlusion; // ambient occlusion, multiplies ambient light only
};

// Sums every light's contribution with lighting `model` (emission is added by the caller).
vec3 shade(int model, Surface s) {
    if (model == MODEL_CONSTANT) return s.diffuse;
    vec3 ambient = vec3(0.0);
    vec3 direct = vec3(0.0);
    float alpha = max(s.roughness * s.roughness, 0.002);
    vec3 f0 = mix(vec3(0.04), s.diffuse, s.metalness);
    float NdotV = max(dot(s.normal, s.view), 1e-4);
    for (int i = 0; i < uLightCount; ++i) {
        int type = uLightType[i];
        if (type == LIGHT_AMBIENT) { ambient += uLightColor[i]; continue; }
        vec3 L;
        float attenuation = 1.0;
        if (type == LIGHT_DIRECTIONAL) {
            L = -normalize(uLightDirection[i]);
        } else {
            vec3 toLight = uLightPosition[i] - s.position;
            float d = length(toLight);
            L = toLight / max(d, 1e-6);
            attenuation = distanceAttenuation(i, d);
            if (type == LIGHT_SPOT) {
                float cosAngle = dot(-L, normalize(uLightDirection[i]));
                attenuation *= smoothstep(uLightSpot[i].y, max(uLightSpot[i].x, uLightSpot[i].y + 1e-4), cosAngle);
            }
        }
        float NdotL = dot(s.normal, L);
        if (NdotL <= 0.0 || attenuation <= 0.0) continue;
        float visibility = shadowVisibility(i, s.position, s.normal);
        vec4 shadowColor = uLightShadowColor[i];
        vec3 radiance = uLightColor[i] * attenuation;
        vec3 lit;
        if (model == MODEL_PBR) {
            vec3 H = normalize(L + s.view);
            float NdotH = max(dot(s.normal, H), 0.0);
            vec3 F = fresnelSchlick(max(dot(H, s.view), 0.0), f0);
            vec3 specular = distributionGGX(NdotH, alpha) * visibilitySmithGGX(NdotV, NdotL, alpha) * F;
            vec3 kd = (1.0 - F) * (1.0 - s.metalness);
            // Lambert's 1/PI is cancelled by the PI of the punctual-light convention, so a white light of
            // intensity 1000 on a white diffuse plane facing it gives 1.0, as with the other models.
            lit = (kd * s.diffuse + PI * specular) * radiance * NdotL;
        } else {
            lit = s.diffuse * radiance * NdotL;
            if (model == MODEL_BLINN) {
                vec3 H = normalize(L + s.view);
                lit += s.specular * radiance * pow(max(dot(s.normal, H), 0.0), s.shininess);
            } else if (model == MODEL_PHONG) {
                vec3 R = reflect(-L, s.normal);
                lit += s.specular * radiance * pow(max(dot(R, s.view), 0.0), s.shininess);
            }
        }
        // In shadow the light is scaled towards the shadow colour by the shadow strength.
        direct += lit * mix(shadowColor.rgb, vec3(1.0), mix(1.0, visibility, shadowColor.a));
    }
    vec3 ambientTerm;
    if (model == MODEL_PBR) {
        // No environment map: diffuse and a Fresnel-weighted specular share the uniform ambient light.
        vec3 F = fresnelSchlick(NdotV, f0);
        ambientTerm = ((1.0 - F) * (1.0 - s.metalness) * s.diffuse + F * (1.0 - s.roughness * 0.5)) * ambient;
    } else {
        ambientTerm = s.diffuse * ambient;
    }
    return ambientTerm * s.occlusion + direct;
}
